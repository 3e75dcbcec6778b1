package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestPluginNotice: a network plugin's WARN that says nothing failed and starts no error
// chain (aws-ofi-nccl's notice where the provider is not EFA), or that says only that the
// plugin's initialization failed (NCCL goes on with its own network), or that it skips a
// check of NCCL's version, is no fault; one that says something else failed, or that a chain
// follows, is that process's network error.
func TestPluginNotice(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[3]
	quietIn(t, warnAt(p, 8159, "ofi_init:700", "NET/OFI Only EFA provider is supported"),
		warnAt(p, 8159, "ofi_init:1355", "NET/OFI aws-ofi-nccl initialization failed"),
		// aws-ofi-nccl 1.7 where libnccl does not export ncclGetVersion: it skips a check.
		warnAt(p, 8159, "configure_nvls_option:287", "NET/OFI Could not find ncclGetVersion symbol"))
	for name, lines := range map[string]string{
		"error words": warnAt(p, 8159, "nccl_ofi_net.c:1411", "NET/OFI Unable to register memory (type = 2) for device 4. RC: -22, Error: Invalid argument"),
		"chain":       chain(p, "ofi_init:700", "NET/OFI Only EFA provider is supported", 2, "net.cc:120", "init.cc:1500"),
		"init chain":  chain(p, "ofi_init:1355", "NET/OFI aws-ofi-nccl initialization failed", 2, "net.cc:120", "init.cc:1500"),
	} {
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError || !slices.Equal(r.Findings[0].Processes, []string{p.name()}) {
			t.Errorf("%s: want %s's network error first:\n%s", name, p.name(), js(r))
		}
	}
}

// TestNetworkThenCuda: a process whose network failed first keeps that kind where a CUDA
// error of its own follows; and nccl-tests' result line that names only the host is that
// host's one process's.
func TestNetworkThenCuda(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[6]
	ib := chain(p, "transport/net_ib.cc:788", "NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129", 2, "include/net.h:34", "transport/net.cc:537")
	cuda := warnAt(p, p.pid, "init.cc:194", "Cuda failure 'an illegal memory access was encountered'")
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), ib+cuda...), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError {
		t.Errorf("network, then CUDA: want a network-error first:\n%s", js(r))
	}
	r = diagnoseBytes(t, "job.log", append(slices.Clone(data), cuda+ib...), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindCudaError {
		t.Errorf("CUDA, then network: want a cuda-error first:\n%s", js(r))
	}
}

// TestHostOnlyLine: a line that names only its host (nccl-tests 2.x's result without a pid)
// is that host's process where the log shows one there, and the host's where it shows two.
func TestHostOnlyLine(t *testing.T) {
	init := func(host string, pid, rank int) string {
		return fmt.Sprintf("%s:%d:%d [0] NCCL INFO comm 0x55%d rank %d nranks 3 cudaDev 0 busId 1000 - Init COMPLETE\n", host, pid, pid, rank, rank)
	}
	jobLog := init("gpu4", 35902, 0) + init("gpu5", 35917, 1) + init("gpu5", 35918, 2)
	for host, want := range map[string]string{"gpu4": "gpu4:35902", "gpu5": "gpu5"} {
		log := jobLog + host + ": Test NCCL failure common.cu:343 'unhandled cuda error'\n .. " + host + ": Test failure common.cu:393\n"
		r := diagnoseBytes(t, "job.log", []byte(log), 0)
		if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Processes, []string{want}) {
			t.Errorf("%s: want the finding on %s:\n%s", host, want, js(r))
		}
	}
}

// TestPluginNoticeNotQuoted: aws-ofi-nccl's notice that GDR is off, printed just before its
// own error, is evidence but not what the sentence quotes: the endpoint it failed to make is.
func TestPluginNoticeNotQuoted(t *testing.T) {
	const log = "ip-10-36-29-253:82:2548 [0] platform_config_endpoint:626 NCCL WARN NET/OFI GDR disabled on GDR-supported instance type p4d.24xlarge\n" +
		"ip-10-36-29-253:82:2548 [0] nccl_net_ofi_domain_get_ep:969 NCCL WARN NET/OFI Creating new endpoint for domain 0x7f7dc3a992c0 failed: Invalid argument\n" +
		"ip-10-36-29-253:82:2548 [0] nccl_net_ofi_create_plugin:335 NCCL WARN NET/OFI aws-ofi-nccl initialization failed\n"
	if f, ok := firstFault(t, log, diagnose.KindNetworkError); ok && !strings.HasSuffix(f.Summary, "NET/OFI Creating new endpoint for domain 0x7f7dc3a992c0 failed: Invalid argument") {
		t.Errorf("want the endpoint's failure quoted: %q", f.Summary)
	}
}

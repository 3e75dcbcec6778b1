package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestSocketWarnChain: a WARN of NCCL's socket layer (it starts with the socket function's
// name) followed by an error chain is a network error on its process, whatever ncclResult
// the chain returns (an internal or a system error); with no chain after it, it stays a
// notice (a stray connection's wrong magic is dropped and the socket accepts again).
func TestSocketWarnChain(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[5]
	for _, c := range []struct {
		name, lines string
	}{
		{"accept-type", chain(p, "misc/socket.cc:440", "socketFinalizeAccept: wrong type 2 != 1", 3,
			"misc/socket.cc:560", "transport/net_socket.cc:370", "proxy.cc:1300")},
		{"poll-connect", chain(p, "misc/socket.cc:580", "socketPollConnect poll() returned 1, no POLLOUT events", 2,
			"misc/socket.cc:600", "bootstrap.cc:290")},
		{"socket-init", chain(p, "misc/socket.cc:400", "ncclSocketInit: connecting to address  with family 0 is neither AF_INET(2) nor AF_INET6(10)", 3,
			"bootstrap.cc:200", "init.cc:1500")},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := diagnoseBytes(t, "job.log", append(slices.Clone(data), c.lines...), 0)
			if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
				t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
			}
			if f := r.Findings[0]; f.Kind != diagnose.KindNetworkError || !slices.Equal(f.Processes, []string{p.name()}) {
				t.Errorf("first finding %s of %v, want network-error of %s: %s", f.Kind, f.Processes, p.name(), f.Summary)
			}
		})
	}
	lone := warnAt(p, 7005, "misc/socket.cc:430", "socketFinalizeAccept: wrong magic 5a5a != 3c3c")
	if r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lone...), 0); r.Status != diagnose.StatusHealthy {
		t.Errorf("a socket WARN with no chain: status %s, want healthy:\n%s", r.Status, js(r))
	}
}

// TestVerbsSetupWarnAlone: a failed InfiniBand verbs call NCCL makes only to set up or drive
// a connection (queue pair, completion queue, protection domain) is a network error by
// itself, though the log ends before its return-code chain; a verbs call NCCL also makes
// while it looks over the devices, or memory registration, still needs its chain.
func TestVerbsSetupWarnAlone(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[5]
	for _, call := range []string{"ibv_create_cq", "ibv_create_qp", "ibv_modify_qp", "ibv_alloc_pd"} {
		msg := "Call to " + call + " failed"
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), warnAt(p, 7005, "misc/ibvwrap.cc:260", msg)...), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Fatalf("%q: status %s, want fault:\n%s", msg, r.Status, js(r))
		}
		if f := r.Findings[0]; f.Kind != diagnose.KindNetworkError || !slices.Equal(f.Processes, []string{p.name()}) ||
			!strings.Contains(f.Summary, call) {
			t.Errorf("%q: first finding %s of %v, want network-error of %s: %s", msg, f.Kind, f.Processes, p.name(), f.Summary)
		}
	}
	for _, msg := range []string{"Call to ibv_open_device failed", "Call to ibv_reg_mr failed with error Cannot allocate memory"} {
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), warnAt(p, 7005, "misc/ibvwrap.cc:260", msg)...), 0)
		if r.Status != diagnose.StatusHealthy {
			t.Errorf("%q with no chain: status %s, want healthy:\n%s", msg, r.Status, js(r))
		}
	}
}

// TestBindFailed: the socket layer's failed bind proves a fault without its chain (an
// excerpt that ends on the WARN): a network-error of its process. Another failed call of the
// system layer, and RAS's client socket's bind (a notice), still need their chains.
func TestBindFailed(t *testing.T) {
	const bind = "gpu2:1653:1695 [0] include/socket.h:347 NCCL WARN Call to bind failed : Address already in use\n"
	if f, ok := firstFault(t, bind, diagnose.KindNetworkError); ok && f.Processes[0] != "gpu2:1653" {
		t.Errorf("processes %v", f.Processes)
	}
	if f, ok := firstFault(t, "h:7:9 [1] misc/socket.cc:409 NCCL WARN Call to bind failed: Address already in use\n", diagnose.KindNetworkError); ok && f.Processes[0] != "h:7" {
		t.Errorf("2.27's form: processes %v", f.Processes)
	}
	for _, line := range []string{
		"gpu2:1653:1695 [0] misc/utils.cc:120 NCCL WARN Call to getifaddrs failed : Resource temporarily unavailable\n",
		// RAS's client socket, which all but one process of a host fail to bind (2.24+).
		"gpu2:1653:1695 [0] ras/client_support.cc:181 NCCL WARN Call to bind failed: Address already in use\n",
	} {
		if r := diagnoseBytes(t, "job.log", []byte(line), 0); r.Status == diagnose.StatusFault {
			t.Errorf("%.60q without its chain: %s", line, js(r))
		}
	}
}

// TestAbortAfterOwnError: `Aborted (core dumped)` after an uncaught NCCL error is how the
// program ended: the process's own error keeps its kind.
func TestAbortAfterOwnError(t *testing.T) {
	log := "YYY:2396:2428 [0] misc/argcheck.cc:40 NCCL WARN Reduce : invalid root 0 (root should be in the 0..0 range)\n" +
		"YYY:2396:2428 [0] NCCL INFO enqueue.cc:447 -> 4\n" +
		"terminate called after throwing an instance of 'std::runtime_error'\n" +
		"  what():  NCCL Error 4: invalid argument\n" +
		"Aborted (core dumped)\n"
	if f, ok := firstFault(t, log, diagnose.KindInvalidUsage); ok && f.Processes[0] != "YYY:2396" {
		t.Errorf("processes %v", f.Processes)
	}
}

// TestIbvUnloaded: 2.28+'s probe of GPUDirect RDMA on a host without libibverbs prints the
// verbs wrapper's WARN and a chain, then goes on over sockets: no fault, in a healthy job or
// in an excerpt that ends in the communicator's set-up; a WARN of its own after it still is.
func TestIbvUnloaded(t *testing.T) {
	const probe = "[2026-09-01 16:19:24] DESKTOP-NJJ0SFQ:2129:2129 [0] misc/ibvwrap.cc:173 NCCL WARN lib wrapper not initialized.\n" +
		"DESKTOP-NJJ0SFQ:2129:2129 [0] NCCL INFO transport/net_ib/gdr.cc:56 -> 3\n" +
		"DESKTOP-NJJ0SFQ:2129:2129 [0] NCCL INFO Failed to initialize any GIN plugin\n" +
		"DESKTOP-NJJ0SFQ:2129:2129 [0] NCCL INFO Using network Socket\n"
	const start = "DESKTOP-NJJ0SFQ:2129:2129 [0] NCCL INFO [Rank 0] ncclCommInitRankConfig comm 0x641a32ed9550 rank 0 nranks 1 cudaDev 0 nvmlDev 0 busId 1000 commId 0x7d30723e5510cf36 - Init START\n" +
		"DESKTOP-NJJ0SFQ:2129:2129 [0] NCCL INFO Channel 00/64 : 0\n"
	quietIn(t, probe)
	if r := diagnoseBytes(t, "job.log", []byte(probe+start), 0); r.Status == diagnose.StatusFault {
		t.Errorf("the probe, then an excerpt's set-up: want no fault:\n%s", js(r))
	}
	const own = "DESKTOP-NJJ0SFQ:2129:2129 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.2<43125> failed : Software caused connection abort\n" +
		"DESKTOP-NJJ0SFQ:2129:2129 [0] NCCL INFO misc/socket.cc:564 -> 2\n"
	firstFault(t, probe+start+own, diagnose.KindNetworkError, 0)
}

// TestNoInterface: NCCL's bootstrap finding no interface to use is an init that cannot start
// on that process's host (NCCL_SOCKET_IFNAME), an init failure of that process, not a link's
// network error; repeated as an exception's `Last error:` alone, it is still one.
func TestNoInterface(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[2]
	lines := chain(p, "bootstrap.cc:45", "Bootstrap : no socket interface found", 3, "bootstrap.cc:120", "init.cc:1720")
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) == 0 || f[0].Kind != diagnose.KindInitFailure ||
		!slices.Equal(f[0].Processes, []string{p.name()}) || !strings.Contains(f[0].Summary, "no network interface to bootstrap on") {
		t.Errorf("want %s's init failure first:\n%s", p.name(), js(r))
	}
	const exc = "RuntimeError: NCCL error in: ../torch/lib/c10d/ProcessGroupNCCL.cpp:825, internal error, NCCL version 2.7.8\n" +
		"ncclInternalError: Internal check failed. This is either a bug in NCCL or due to memory corruption\n" +
		"Last error:\nBootstrap : no socket interface found\n"
	firstFault(t, exc, diagnose.KindInitFailure)
}

package diagnose_test

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/diagnose"
)

// jobProc is one process of a generated job: its host, pid and rank.
type jobProc struct {
	host      string
	pid, rank int
}

func (p jobProc) name() string { return fmt.Sprintf("%s:%d", p.host, p.pid) }

var initLine = regexp.MustCompile(`(?m)^(\S+):(\d+):\d+ \[\d+\] NCCL INFO comm \S+ rank (\d+) nranks \d+ .*Init START`)

// jobProcs lists a generated job's processes by rank, from their Init START lines.
func jobProcs(t *testing.T, data []byte) map[int]jobProc {
	t.Helper()
	out := map[int]jobProc{}
	for _, m := range initLine.FindAllSubmatch(data, -1) {
		pid, _ := strconv.Atoi(string(m[2]))
		rank, _ := strconv.Atoi(string(m[3]))
		out[rank] = jobProc{string(m[1]), pid, rank}
	}
	if len(out) == 0 {
		t.Fatal("the generated job has no Init START lines")
	}
	return out
}

// warnAt and frameAt write a WARN and a frame of an error's return-code chain as NCCL prints
// them for process p on thread tid.
func warnAt(p jobProc, tid int, where, msg string) string {
	return fmt.Sprintf("%s:%d:%d [%d] %s NCCL WARN %s\n", p.host, p.pid, tid, p.rank%4, where, msg)
}

func frameAt(p jobProc, tid int, where string, res int) string {
	return fmt.Sprintf("%s:%d:%d [%d] NCCL INFO %s -> %d\n", p.host, p.pid, tid, p.rank%4, where, res)
}

// chain writes a WARN and the frames NCCL prints after it as the error returns, res each.
func chain(p jobProc, where, msg string, res int, frames ...string) string {
	s := warnAt(p, 7000+p.rank, where, msg)
	for _, f := range frames {
		s += frameAt(p, 7000+p.rank, f, res)
	}
	return s
}

func warnJob(t *testing.T) ([]byte, map[int]jobProc) {
	t.Helper()
	data, _ := generate(t, gen.Config{Seed: 4, Ranks: 8, RanksPerHost: 4, Steps: 2})
	return data, jobProcs(t, data)
}

// TestWarnChains: a WARN diagnose's phrases did not name (a shared memory segment, a socket
// connect, a duplicate GPU, any WARN followed by its return-code chain) is the first fault, of
// the kind its phrase or its ncclResult gives, on its process; the other processes' chains
// (whose WARN the log does not show) follow it. Without the chain, a WARN no phrase names is a
// notice, and the job stays healthy; a chain without its WARN, or a follow-on alone, proves
// nothing of who failed.
func TestWarnChains(t *testing.T) {
	data, ps := warnJob(t)
	p, q := ps[5], ps[2]
	follower := fmt.Sprintf("%s:%d:9100 [%d] NCCL INFO init.cc:1400 -> 2 [Async thread]\n", q.host, q.pid, q.rank%4)
	for _, c := range []struct {
		name  string
		lines string
		kind  diagnose.Kind
	}{
		{"shm", chain(p, "misc/shmutils.cc:95", "Error while creating shared memory segment /dev/shm/nccl-Qw3rTy (size 9437184)", 2,
			"transport/shm.cc:120", "transport.cc:40", "init.cc:1100"), diagnose.KindShm},
		{"shm-extend", warnAt(p, 7005, "misc/shmutils.cc:60", "Error: failed to extend /dev/shm/nccl-Qw3rTy to 9437188 bytes"), diagnose.KindShm},
		// The system calls of the shared memory code, which the words alone file as any
		// system call's: known by the WARN's source file.
		{"shm-open", warnAt(p, 7005, "misc/shmutils.cc:93", "Call to open failed: No such file or directory") +
			chain(p, "misc/shmutils.cc:129", "Error while attaching to shared memory segment /dev/shm/nccl-Qw3rTy (size 0), error: No such file or directory (2)", 2,
				"transport/shm.cc:400", "transport.cc:180"), diagnose.KindShm},
		// A proxy's failed Connect whose chain begins in the InfiniBand code: the network
		// failed, though ncclSystemError alone names a system call.
		{"proxy-connect-ib", chain(p, "proxy.cc:1040", "[Proxy Service 5] Failed to execute operation Connect from rank 5, retcode 2", 2,
			"transport/net_ib.cc:664", "include/net.h:26", "transport/net.cc:631", "proxy.cc:914"), diagnose.KindNetworkError},
		{"shm-h", warnAt(p, 7005, "include/shm.h:48", "Call to posix_fallocate failed : No space left on device"), diagnose.KindShm},
		{"socket-connect", chain(p, "misc/socket.cc:480", "socketStartConnect: Connect to 10.9.8.7<40404> failed : Connection refused", 2,
			"misc/socket.cc:560", "bootstrap.cc:280", "init.cc:1360"), diagnose.KindNetworkError},
		{"duplicate-gpu", chain(p, "init.cc:500", "Duplicate GPU detected : rank 5 and rank 4 both on CUDA device 3b000", 5,
			"init.cc:870", "init.cc:910"), diagnose.KindInvalidUsage},
		{"unnamed-internal", chain(p, "enqueue.cc:210", "Unexpected value in the work queue of channel 3", 3,
			"enqueue.cc:230", "group.cc:120"), diagnose.KindInternalError},
		{"ring-loop", chain(p, "graph/rings.cc:43", "Error : ring 0 does not loop back to start (1 != 0)", 3,
			"graph/connect.cc:213", "init.cc:791", "init.cc:904"), diagnose.KindInternalError},
		{"unnamed-usage", chain(p, "collectives.cc:50", "The buffers of this call overlap in a way NCCL cannot use", 4,
			"collectives.cc:60"), diagnose.KindInvalidUsage},
		{"unnamed-system", chain(p, "misc/utils.cc:80", "Could not read the host's hash file", 2,
			"init.cc:700"), diagnose.KindSystemError},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := diagnoseBytes(t, "job.log", append(slices.Clone(data), c.lines+follower...), 0)
			if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
				t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
			}
			f := r.Findings[0]
			ranks := []int64{int64(p.rank)}
			if c.name == "duplicate-gpu" {
				ranks = []int64{4, 5} // the WARN names the other rank on the GPU too (dupgpu.go)
			}
			if f.Kind != c.kind || !slices.Equal(f.Processes, []string{p.name()}) || !slices.Equal(f.Ranks, ranks) {
				t.Errorf("first finding %s of %v ranks %v, want %s of %s rank %d: %s", f.Kind, f.Processes, f.Ranks, c.kind, p.name(), p.rank, f.Summary)
			}
			folded := false
			for _, o := range r.Findings[1:] {
				if slices.Contains(o.Processes, q.name()) {
					if o.Follows == nil {
						t.Errorf("%s's chain is a finding of its own: %s", q.name(), o.Summary)
					}
					folded = true
				}
			}
			if !folded {
				t.Errorf("%s's chain is not folded under the first fault:\n%s", q.name(), js(r))
			}
		})
	}
	for _, c := range []struct{ name, lines string }{
		{"notice", warnAt(p, 7005, "init.cc:900", `NUMA auto balancing enabled which can lead to variability in the RCCL performance! Disable by "sudo sysctl kernel.numa_balancing=0"`)},
		{"unnamed-no-chain", warnAt(p, 7005, "enqueue.cc:210", "Unexpected value in the work queue of channel 3")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if r := diagnoseBytes(t, "job.log", append(slices.Clone(data), c.lines...), 0); r.Status != diagnose.StatusHealthy {
				t.Errorf("status %s, want healthy:\n%s", r.Status, js(r))
			}
		})
	}
	// A WARN whose chain returns ncclRemoteError passes on another process's fault: no origin
	// of its own, but no healthy job prints one either: unknown, the follow-on listed.
	passed := chain(p, "proxy.cc:1100", "[Proxy Service 5] Failed to execute operation Connect from rank 4, retcode 6", 6, "proxy.cc:1120")
	if r := diagnoseBytes(t, "job.log", append(slices.Clone(data), passed...), 0); r.Status != diagnose.StatusUnknown ||
		len(r.Findings) != 1 || r.Findings[0].Kind != diagnose.KindRemoteError {
		t.Errorf("a follow-on alone: status %s, want unknown with the follow-on:\n%s", r.Status, js(r))
	}
	// Chains whose WARN the log does not show prove no fault (an excerpt can start inside
	// one), but a healthy job prints none: unknown, each ncclResult's chains a finding.
	bare := frameAt(p, 7005, "transport/shm.cc:120", 2) + frameAt(p, 7005, "init.cc:1100", 2) + follower
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), bare...), 0)
	if r.Status != diagnose.StatusUnknown || len(r.Findings) != 1 || r.Findings[0].Kind != diagnose.KindSystemError ||
		!slices.Equal(r.Findings[0].Processes, []string{p.name(), q.name()}) || !strings.Contains(r.Findings[0].Summary, "printed an error chain without its WARN") {
		t.Errorf("chains without their WARN: want unknown, with the two processes' chains:\n%s", js(r))
	}
}

// TestChainAfterPeerClosed: a process that logged its peer closing, then a WARN no phrase names
// with its chain, passes the peer's error on: the first finding is the peer closing.
func TestChainAfterPeerClosed(t *testing.T) {
	data, ps := warnJob(t)
	p, q := ps[5], ps[2]
	lines := warnAt(p, 7005, "misc/socket.cc:50", "socketProgress: Connection closed by remote peer "+q.host+"<40001>") +
		chain(p, "proxy.cc:1140", "Socket recv failed while polling for opId=0x5a5a", 3, "transport/p2p.cc:440")
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindConnectionClosed {
		t.Errorf("status %s, want fault with connection-closed first:\n%s", r.Status, js(r))
	}
}

// TestRuntimeCallWarnAlone: a WARN that names a CUDA or HIP runtime call as failed
// (`hipIpcGetMemHandle failed : invalid argument`) is a CUDA error by itself, without the
// return-code chain the log may end before; RCCL's kernel-option notices stay notices.
func TestRuntimeCallWarnAlone(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[5]
	notices := warnAt(p, 7005, "init.cc:125", `Missing "amd_iommu=on" from kernel command line which can lead to system instablity or hang!`) +
		warnAt(p, 7005, "init.cc:132", `Missing "HSA_FORCE_FINE_GRAIN_PCIE=1" from environment which can lead to low RCCL performance, system instablity or hang!`)
	if r := diagnoseBytes(t, "job.log", append(slices.Clone(data), notices...), 0); r.Status != diagnose.StatusHealthy {
		t.Errorf("RCCL notices: status %s, want healthy:\n%s", r.Status, js(r))
	}
	for _, msg := range []string{
		"hipIpcGetMemHandle failed : invalid argument",
		"cudaIpcGetMemHandle failed : invalid device context",
		"cudaIpcOpenMemHandle failed : too many resources requested",
	} {
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), notices+warnAt(p, 7105, "transport/p2p.cc:220", msg)...), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Fatalf("%q: status %s, want fault:\n%s", msg, r.Status, js(r))
		}
		if f := r.Findings[0]; f.Kind != diagnose.KindCudaError || !slices.Equal(f.Processes, []string{p.name()}) {
			t.Errorf("%q: first finding %s of %v, want cuda-error of %s", msg, f.Kind, f.Processes, p.name())
		}
	}
}

// TestRankCheckedInTwice: the bootstrap root's `rank N of M ranks has already checked in` is
// two processes claiming rank N (the launcher's rank settings), not a network error: an
// invalid-usage finding that names rank N, on the root's process where it was seen.
func TestRankCheckedInTwice(t *testing.T) {
	data, ps := warnJob(t)
	root := ps[0]
	for _, follow := range []bool{false, true} {
		lines := warnAt(root, 7300, "bootstrap.cc:131", "Bootstrap Root : rank 3 of 8 ranks has already checked in")
		if follow {
			lines = chain(root, "bootstrap.cc:131", "Bootstrap Root : rank 3 of 8 ranks has already checked in", 5, "bootstrap.cc:180")
		}
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
		}
		f := r.Findings[0]
		if f.Kind != diagnose.KindInvalidUsage || !slices.Equal(f.Ranks, []int64{3}) || !slices.Equal(f.Processes, []string{root.name()}) ||
			!strings.HasPrefix(f.Summary, "Two processes claimed rank 3 of 8") {
			t.Errorf("chain %v: first finding %s ranks %v of %v, want invalid-usage of rank 3 seen by %s: %s", follow, f.Kind, f.Ranks, f.Processes, root.name(), f.Summary)
		}
	}
}

// TestBareChainWording: another process's error chain whose WARN the log does not show is
// said as such ("printed an error chain without its WARN", with its ncclResult), not as the
// follow-on errors of a remote failure; one printed before the first fault does not follow it.
func TestBareChainWording(t *testing.T) {
	data, ps := warnJob(t)
	p, q := ps[5], ps[2]
	fault := chain(p, "transport.cc:154", "Cuda failure 'invalid argument'", 1, "transport.cc:160")
	bare := frameAt(q, 9100, "include/net.h:24", 2)
	for _, c := range []struct {
		name, lines string
		follows     bool
	}{{"after", fault + bare, true}, {"before", bare + fault, false}} {
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), c.lines...), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindCudaError {
			t.Fatalf("%s: status %s, want the CUDA error first:\n%s", c.name, r.Status, js(r))
		}
		var got *diagnose.Finding
		for i := range r.Findings[1:] {
			if slices.Contains(r.Findings[i+1].Processes, q.name()) {
				got = &r.Findings[i+1]
			}
		}
		if got == nil {
			t.Fatalf("%s: no finding holds %s's chain:\n%s", c.name, q.name(), js(r))
		}
		if !strings.Contains(got.Summary, "printed an error chain without its WARN (include/net.h:24 -> 2, ncclSystemError)") ||
			strings.Contains(got.Summary, "follow-on") || (got.Follows != nil) != c.follows {
			t.Errorf("%s: %s's chain follows %v, want %v: %s", c.name, q.name(), got.Follows, c.follows, got.Summary)
		}
	}
}

// TestAdviceStartsNoChain: RCCL's advice at init (`... which can lead to ...`) on a process's
// main thread is not the WARN of the error chain that thread prints much later for a failure
// met on another thread: the failure is the finding, and the advice is no evidence of it.
func TestAdviceStartsNoChain(t *testing.T) {
	lines := "n2:10:10 [0] init.cc:136 NCCL WARN Missing \"iommu=pt\" from kernel command line which can lead to system instablity or hang!\n" +
		"n2:10:10 [0] init.cc:115 NCCL WARN NUMA auto balancing enabled which can lead to variability in the RCCL performance! Disable by \"sudo sysctl kernel.numa_balancing=0\"\n" +
		"n2:10:11 [0] ucx_plugin.c:498 NCCL WARN Failed: UCX error ucx_plugin.c:498 '-5' Invalid parameter\n" +
		"n2:10:11 [0] NCCL INFO transport/net.cc:858 -> 3\n" +
		"n2:10:10 [0] NCCL INFO group.cc:431 -> 3\n"
	r := diagnoseBytes(t, "job.log", []byte(lines), 0)
	if r.Status != diagnose.StatusFault || !strings.Contains(r.Findings[0].Summary, "UCX error") {
		t.Fatalf("status %s, want a fault naming the UCX error:\n%s", r.Status, js(r))
	}
	for _, f := range r.Findings {
		for _, e := range f.Evidence {
			if e.Line <= 2 {
				t.Errorf("advice (line %d) is evidence of %q", e.Line, f.Summary)
			}
		}
	}
}

// TestFaultWarnWithAdviceWordsStartsChain: a WARN a phrase names (a failed system call, which
// proves a fault where its error chain follows it) starts its chain even where its words also
// say what it can lead to; only advice no phrase names starts none.
func TestFaultWarnWithAdviceWordsStartsChain(t *testing.T) {
	lines := "n2:10:11 [0] misc/shmutils.cc:70 NCCL WARN Call to posix_fallocate failed : No space left on device, which can lead to a crash\n" +
		"n2:10:11 [0] NCCL INFO transport/net_ib.cc:900 -> 2\n"
	r := diagnoseBytes(t, "job.log", []byte(lines), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 || !strings.Contains(r.Findings[0].Summary, "posix_fallocate") {
		t.Fatalf("status %s, want a fault naming the failed call:\n%s", r.Status, js(r))
	}
}

// TestIBCollectiveMismatch: net_ib.cc's `collective mismatch error` (a send larger than the
// receive its peer posted: the ranks called different sizes) is the process's mismatch
// alone, as a pasted line without the chain NCCL prints after it, in either of its forms.
func TestIBCollectiveMismatch(t *testing.T) {
	for _, line := range []string{
		"n136-081-017:201805:201927 [0] transport/net_ib.cc:667 NCCL WARN NET/IB : collective mismatch error local size 32768 remote 1048576 addr 0 rkey 3beac3 seq adf/adf\n",
		"n136-081-017:201805:201927 [0] transport/net_ib.cc:1322 NCCL WARN NET/IB : req 0/1 tag 0 peer 10.0.0.6<58683> collective mismatch error, local size 496640 remote size 65536\n",
	} {
		r := diagnoseBytes(t, "job.log", []byte(line), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindMismatch ||
			!slices.Equal(r.Findings[0].Processes, []string{"n136-081-017:201805"}) ||
			!strings.Contains(r.Findings[0].Summary, "collectives of different sizes") {
			t.Errorf("want n136-081-017:201805's mismatch first:\n%s", js(r))
		}
	}
}

// TestBareChainsAfterAbort: an abort unwinds its sockets through chains without a WARN
// (`misc/socket.cc:47 -> 3` after `Abort COMPLETE`): a process that aborted and printed them,
// with nothing else wrong, is a clean shutdown by abort, healthy.
func TestBareChainsAfterAbort(t *testing.T) {
	const log = "kasago:1001461:1009571 [1] NCCL INFO comm 0x5575bbed4480 rank 0 nranks 1 cudaDev 1 busId 2d000 - Abort COMPLETE\n" +
		"kasago:1001461:1009778 [1] NCCL INFO misc/socket.cc:47 -> 3\n" +
		"kasago:1001461:1009778 [1] NCCL INFO misc/socket.cc:550 -> 3\n"
	if r := diagnoseBytes(t, "job.log", []byte(log), 0); r.Status != diagnose.StatusHealthy {
		t.Errorf("chains of an abort's unwinding: status %s, want healthy:\n%s", r.Status, js(r))
	}
}

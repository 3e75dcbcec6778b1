package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestMismatchedCollectiveWarn: NCCL 2.4-2.6's device check of the ranks' calls prints
// `Mismatched collective detected` on each rank that saw it: a mismatch, shared where every
// process with evidence printed it, and that one process's where one did.
func TestMismatchedCollectiveWarn(t *testing.T) {
	data, ps := warnJob(t)
	warn := func(p jobProc) string {
		return warnAt(p, 7000+p.rank, "init.cu:1197", fmt.Sprintf("Mismatched collective detected, please check your collective calls at and around rank %d. You can use NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=COLL to see the collective logs", p.rank))
	}
	var all string
	for _, r := range []int{1, 3, 5, 7} {
		all += warn(ps[r])
	}
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), all...), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("four ranks' mismatch WARNs: status %s, want fault:\n%s", r.Status, js(r))
	}
	if f := r.Findings[0]; f.Kind != diagnose.KindMismatch || !f.Shared || len(f.Processes) != 4 || !strings.Contains(f.Summary, "different collectives") {
		t.Errorf("first finding %s (shared %v) of %v, want a shared mismatch of 4 processes: %s", f.Kind, f.Shared, f.Processes, f.Summary)
	}
	r = diagnoseBytes(t, "job.log", append(slices.Clone(data), warn(ps[5])...), 0)
	if len(r.Findings) == 0 || r.Findings[0].Kind != diagnose.KindMismatch || !slices.Equal(r.Findings[0].Processes, []string{ps[5].name()}) {
		t.Errorf("one rank's mismatch WARN: want a mismatch of %s:\n%s", ps[5].name(), js(r))
	}
}

// TestIBAsyncQueueError: in 2.19-2.22's wording (`Got async event : <event>`), a queue pair's
// error on one host is the first fault, though a peer's failed completion comes later in
// the log; a port event alone is a notice a healthy job prints too.
func TestIBAsyncQueueError(t *testing.T) {
	data, ps := warnJob(t)
	bad, peer := ps[2], ps[6]
	lines := warnAt(bad, 7100, "transport/net_ib.cc:101", "NET/IB : mlx5_0:1 Got async event : local access violation work queue error") +
		chain(peer, "transport/net_ib.cc:1909", "NET/IB : Got completion from peer 10.1.3.201<33057> with status=9 opcode=0 len=0 vendor err 138 (Send)", 6,
			"transport/net.cc:1137", "proxy.cc:698")
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
	}
	if f := r.Findings[0]; f.Kind != diagnose.KindNetworkError || !slices.Equal(f.Processes, []string{bad.name()}) {
		t.Errorf("first finding %s of %v, want network-error of %s: %s", f.Kind, f.Processes, bad.name(), f.Summary)
	}
	notice := warnAt(bad, 7100, "transport/net_ib.cc:101", "NET/IB : mlx5_0:1 Got async event : port active")
	if r := diagnoseBytes(t, "job.log", append(slices.Clone(data), notice...), 0); r.Status != diagnose.StatusHealthy {
		t.Errorf("a port event alone: status %s, want healthy:\n%s", r.Status, js(r))
	}
}

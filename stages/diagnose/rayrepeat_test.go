package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestRayRepeats: a watchdog timeout that Ray folded (`[repeated 3x across cluster]`) is that
// many more workers' timeouts: with no other fault, a timeout they share, not one rank's; the
// same line without the count is one rank's, and a count that is no number is not read.
func TestRayRepeats(t *testing.T) {
	const line = "(WorkerDict pid=2394310) [rank3]:[E429 12:07:50.216898418 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: " +
		"[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=46797824, NumelOut=46797824, Timeout(ms)=1800000) ran for 1800081 milliseconds before timing out."
	r := diagnoseBytes(t, "ray.log", []byte(line+" [repeated 3x across cluster]\n"), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || !f[0].Shared || !slices.Equal(f[0].Ranks, []int64{3}) ||
		!strings.Contains(f[0].Summary, "3 more processes whose lines Ray folded") {
		t.Errorf("a folded timeout: want one shared finding of rank 3 and 3 more:\n%s", js(r))
	}
	for _, tail := range []string{"", " [repeated Nx across cluster]"} {
		r := diagnoseBytes(t, "ray.log", []byte(line+tail+"\n"), 0)
		if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || f[0].Shared {
			t.Errorf("tail %q: want rank 3's own timeout:\n%s", tail, js(r))
		}
	}
}

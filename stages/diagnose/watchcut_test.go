package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestWatchdogCutLines: watchdog timeout lines a terminal wrapped inside their WorkNCCL tuple
// (the rest on a line of its own) are still each rank's timeout: every rank timed out, a
// shared cause.
func TestWatchdogCutLines(t *testing.T) {
	lines := []string{
		"[rank0]:[E501 10:00:00.000000001 ProcessGroupNCCL.cpp:629] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpTy",
		"pe=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for 600010 milliseconds before timing out.",
		"[rank1]:[E501 10:00:00.000000002 ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, Numel",
		"In=8, NumelOut=8, Timeout(ms)=600000) ran for 600010 milliseconds before timing out.",
	}
	r := diagnoseBytes(t, "wrap.log", []byte(strings.Join(lines, "\n")+"\n"), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("status %s (%s), want fault:\n%s", r.Status, r.Reason, js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindWatchdogTimeout || !slices.Equal(f.Ranks, []int64{0, 1}) {
		t.Errorf("first finding %s ranks %v: %s, want both ranks' watchdog timeouts", f.Kind, f.Ranks, f.Summary)
	}
}

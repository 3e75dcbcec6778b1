package diagnose_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// lagLine is a PyTorch watchdog timeout of rank r at work seq in op, in the default group
// where pg is false, else in process group 2.
func lagLine(r int, seq int, op string, pg bool) string {
	if pg {
		return fmt.Sprintf("[rank%d]:[E512 10:00:0%d.000000000 ProcessGroupNCCL.cpp:632] [PG ID 2 PG GUID 5 Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, OpType=%s, NumelIn=64, NumelOut=64, Timeout(ms)=600000) ran for 600088 milliseconds before timing out.\n", r, r%10, r, seq, op)
	}
	return fmt.Sprintf("[E ProcessGroupNCCL.cpp:821] [Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, OpType=%s, Timeout(ms)=1800000) ran for 1801234 milliseconds before timing out.\n", r, seq, op)
}

// TestWatchLagging: ranks whose timeouts name an earlier work of the default group than the
// others' stopped at a collective the others had finished: they are behind, named in the
// first fault. One work for all, more than half at the lowest, or a group other than the
// default: no rank is named.
func TestWatchLagging(t *testing.T) {
	f, ok := firstFault(t, lagLine(1, 7, "BROADCAST", false)+lagLine(0, 9, "ALLREDUCE", false), diagnose.KindBehind, 1)
	if ok && !strings.Contains(f.Summary, "Rank 1 timed out in BROADCAST (SeqNum 7), a collective rank 0 had finished") {
		t.Errorf("the sentence: %s", f.Summary)
	}
	firstFault(t, lagLine(2, 40, "ALLGATHER", false)+lagLine(0, 41, "ALLGATHER", false)+lagLine(1, 41, "ALLGATHER", false)+lagLine(3, 42, "ALLGATHER", false),
		diagnose.KindBehind, 2)
	for name, log := range map[string]string{
		"one work":        lagLine(0, 9, "ALLREDUCE", false) + lagLine(1, 9, "ALLREDUCE", false),
		"most behind":     lagLine(0, 5, "ALLREDUCE", false) + lagLine(1, 5, "ALLREDUCE", false) + lagLine(2, 6, "ALLREDUCE", false),
		"another group":   lagLine(0, 5, "ALLREDUCE", true) + lagLine(1, 6, "ALLREDUCE", true),
		"a rank's two":    lagLine(0, 5, "ALLREDUCE", false) + lagLine(0, 6, "ALLREDUCE", false) + lagLine(1, 6, "ALLREDUCE", false),
		"one rank alone ": lagLine(3, 5, "ALLREDUCE", false),
	} {
		r := diagnoseBytes(t, "job.log", []byte(log), 0)
		if len(r.Findings) > 0 && r.Findings[0].Kind == diagnose.KindBehind {
			t.Errorf("%s: want no rank behind:\n%s", name, js(r))
		}
	}
}

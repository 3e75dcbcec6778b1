package diagnose_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// wdLine is a PyTorch watchdog timeout line of the process labelled label (`[rank13]:`, or
// none), whose message names its group's rank `[Rank r]` without the group.
func wdLine(before, label string, r, seq int, op string) string {
	return before + label + "[E218 04:54:22.864467604 ProcessGroupNCCL.cpp:616] [Rank " + strconv.Itoa(r) +
		"] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + strconv.Itoa(seq) + ", OpType=" + op +
		", NumelIn=32, NumelOut=32, Timeout(ms)=600000) ran for 600045 milliseconds before timing out.\n"
}

// TestWatchdogGlobalLabel: PyTorch's `[rankN]:` label is the global rank, where the message's
// `[Rank 1]` is a process group's, also behind a platform's time the parser does not read
// as one; a `[defaultN]:` label (torchrun's local rank) leaves the message's rank.
func TestWatchdogGlobalLabel(t *testing.T) {
	for _, before := range []string{"", " 2025-02-18 12:54 ", "2025-02-18T12:54:00Z "} {
		log := wdLine(before, "[rank13]:", 1, 216, "ALLTOALL_BASE") + wdLine(before, "[rank15]:", 0, 57, "ALLREDUCE")
		f, ok := firstFault(t, log, diagnose.KindWatchdogTimeout, 13, 15)
		if ok && !strings.Contains(f.Summary, "2 of at least 16") {
			t.Errorf("%q: the summary does not say the log shows 2 of at least 16 ranks: %s", before, f.Summary)
		}
	}
	firstFault(t, wdLine("", "[default3]:", 3, 9, "ALLREDUCE")+wdLine("", "[default2]:", 2, 9, "ALLREDUCE"),
		diagnose.KindWatchdogTimeout, 2, 3)
	f, ok := firstFault(t, wdLine("", "", 0, 9, "ALLREDUCE")+wdLine("", "", 1, 9, "ALLREDUCE"), diagnose.KindWatchdogTimeout, 0, 1)
	if ok && !strings.HasPrefix(f.Summary, "Every rank (2)") {
		t.Errorf("all of a job's ranks: %s", f.Summary)
	}
}

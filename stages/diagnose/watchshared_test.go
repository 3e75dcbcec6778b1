package diagnose_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// watchLine is a c10 watchdog timeout line of rank r at work seq, with a `[PG g Rank r]` tag
// where g >= 0, stamped at second s.
func watchLine(r, g, seq, s int) string {
	tag := fmt.Sprintf("[Rank %d]", r)
	if g >= 0 {
		tag = fmt.Sprintf("[PG %d Rank %d]", g, r)
	}
	return fmt.Sprintf("[rank%d]:[E424 01:11:%02d.160832730 ProcessGroupNCCL.cpp:629] %s Watchdog caught collective operation timeout: "+
		"WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=112, NumelOut=112, Timeout(ms)=1800000) ran for 1800010 milliseconds before timing out.\n", r, s, tag, seq)
}

// TestSharedWatchdogWorks: a shared watchdog finding says "the same collective" only where
// the ranks' timeouts name one work (SeqNum, and process group where named); ranks that
// timed out in different works are said to, with their works and the first to time out.
func TestSharedWatchdogWorks(t *testing.T) {
	cases := []struct {
		name, log string
		want      []string
	}{
		{"one work", watchLine(0, -1, 812, 21) + watchLine(1, -1, 812, 21),
			[]string{"Every rank (2) timed out in the same collective with no other error: a cause they share"}},
		{"one work, one group", watchLine(0, 3, 812, 21) + watchLine(1, 3, 812, 21),
			[]string{"Every rank (2) timed out in the same collective"}},
		{"different works", watchLine(0, -1, 96120, 22) + watchLine(0, -1, 96117, 21) + watchLine(1, -1, 64088, 23),
			[]string{"Every rank (2) timed out with no other error, but in 3 different collectives, not one (all ALLREDUCE; rank 0 at SeqNum 96117, 96120; rank 1 at SeqNum 64088; the first at ",
				"01:11:21.160832730, rank 0 at SeqNum 96117): a cause they share (the network, or a stall outside NCCL)."}},
		{"one SeqNum, two groups", watchLine(0, 1, 812, 21) + watchLine(1, 2, 812, 22),
			[]string{"but in 2 different collectives, not one (all ALLREDUCE; rank 0 at PG 1 SeqNum 812; rank 1 at PG 2 SeqNum 812; the first at "}},
	}
	for _, tc := range cases {
		r := diagnoseBytes(t, "job.log", []byte(tc.log), 0)
		if len(r.Findings) == 0 {
			t.Fatalf("%s: no finding:\n%s", tc.name, js(r))
		}
		f := r.Findings[0]
		if f.Kind != diagnose.KindWatchdogTimeout || !f.Shared {
			t.Errorf("%s: kind %s shared %v, want a shared watchdog timeout", tc.name, f.Kind, f.Shared)
		}
		for _, w := range tc.want {
			if !strings.Contains(f.Summary, w) {
				t.Errorf("%s: summary %q\nlacks %q", tc.name, f.Summary, w)
			}
		}
	}
}

// TestSameSeqOtherOps: ranks whose timeouts name one SeqNum but different ops called
// different collectives at one position: the sentence names the ops, and not the network;
// the same SeqNum in two process groups is two works, not this.
func TestSameSeqOtherOps(t *testing.T) {
	line := func(r int, op string, n int, pg string) string {
		return fmt.Sprintf("[rank%d]:[E816 01:45:40.18300938%d ProcessGroupNCCL.cpp:632] [%sRank %d] Watchdog caught collective operation timeout: "+
			"WorkNCCL(SeqNum=80078, OpType=%s, NumelIn=%d, NumelOut=%d, Timeout(ms)=1800000) ran for 1800065 milliseconds before timing out.\n", r, r, pg, r, op, n, n)
	}
	r := diagnoseBytes(t, "job.log", []byte(line(3, "ALLREDUCE", 2106881, "")+line(7, "BROADCAST", 5056, "")), 0)
	s := r.Findings[0].Summary
	if !strings.Contains(s, "rank 3 ALLREDUCE") || !strings.Contains(s, "rank 7 BROADCAST") || strings.Contains(s, "network, or") {
		t.Errorf("same SeqNum, other ops: %q, want the ops named and no network blamed", s)
	}
	r = diagnoseBytes(t, "job.log", []byte(line(3, "ALLREDUCE", 1, "PG 1 ")+line(7, "BROADCAST", 1, "PG 2 ")), 0)
	if s := r.Findings[0].Summary; strings.Contains(s, "at the same call") {
		t.Errorf("same SeqNum in two groups: %q, want two works", s)
	}
}

// TestWatchdogNotEveryRank: where no communicator line gives the job's size, the processes
// the NCCL lines name count: three ranks' timeouts among four processes of a host are not
// every rank's, and are not said to be shared.
func TestWatchdogNotEveryRank(t *testing.T) {
	var closed strings.Builder
	for pid := 6726; pid <= 6729; pid++ {
		fmt.Fprintf(&closed, "node9:%d:%d [%d] NCCL INFO [Service thread] Connection closed by localRank 2\n", pid, pid+440, pid-6726)
	}
	log := watchLine(2, -1, 305, 21) + closed.String() + watchLine(0, -1, 305, 22) + watchLine(1, -1, 305, 23)
	f, ok := firstFault(t, log, diagnose.KindWatchdogTimeout, 0, 1, 2)
	if ok && (f.Shared || strings.HasPrefix(f.Summary, "Every rank")) {
		t.Errorf("three ranks of four processes: %+v", f)
	}
	// Without the processes' lines, the three are all the log shows: shared.
	if f, ok := firstFault(t, watchLine(2, -1, 305, 21)+watchLine(0, -1, 305, 22)+watchLine(1, -1, 305, 23), diagnose.KindWatchdogTimeout, 0, 1, 2); ok && !f.Shared {
		t.Errorf("three ranks alone: not shared: %+v", f)
	}
}

// TestSameSeqOtherCounts: ranks whose timeouts name one work and one op but other element
// counts called different collectives there: a mismatch of the ranks on the smaller side
// (rank 7 of four), shared where the sides are even; equal counts stay the shared timeout.
func TestSameSeqOtherCounts(t *testing.T) {
	line := func(r, n int) string {
		return fmt.Sprintf("[rank%d]:[E816 01:45:40.18300938%d ProcessGroupNCCL.cpp:632] [Rank %d] Watchdog caught collective operation timeout: "+
			"WorkNCCL(SeqNum=13807, OpType=ALLREDUCE, NumelIn=%d, NumelOut=%d, Timeout(ms)=1800000) ran for 1800221 milliseconds before timing out.\n", r, r, r, n, n)
	}
	log := line(1, 11274112) + line(6, 11274112) + line(5, 11274112) + line(7, 10942336)
	if f, ok := firstFault(t, log, diagnose.KindMismatch, 7); ok && (f.Shared || !strings.Contains(f.Summary, "rank 7 ALLREDUCE, NumelIn 10942336")) {
		t.Errorf("rank 7's other counts: %+v", f)
	}
	if f, ok := firstFault(t, line(1, 8)+line(7, 16), diagnose.KindMismatch, 1, 7); ok && !f.Shared {
		t.Errorf("even sides: want a shared mismatch: %+v", f)
	}
	if f, ok := firstFault(t, line(1, 8)+line(7, 8), diagnose.KindWatchdogTimeout, 1, 7); ok && !f.Shared {
		t.Errorf("one call: want the shared timeout: %+v", f)
	}
}

// TestWatchMissingRank: where the timeouts of one work name every rank of the job but one,
// that rank did not wait in it: the first finding names it as behind, the timeouts the
// evidence. One rank's timeout alone, two ranks left out of four, or a group's ranks stay the
// timeouts' own findings.
func TestWatchMissingRank(t *testing.T) {
	dog := func(r int, pg string) string {
		return fmt.Sprintf("[E ProcessGroupNCCL.cpp:828] [%sRank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=10792, OpType=BROADCAST, Timeout(ms)=1800000) ran for 1800764 milliseconds before timing out.\n", pg, r)
	}
	if f, ok := firstFault(t, dog(1, "")+dog(3, "")+dog(2, ""), diagnose.KindBehind, 0); ok && !strings.HasPrefix(f.Summary, "Rank 0 printed no watchdog timeout while ranks 1, 2 and 3 timed out") {
		t.Errorf("rank 0 left out: %q", f.Summary)
	}
	firstFault(t, dog(1, ""), diagnose.KindWatchdogTimeout, 1)
	if f, ok := firstFault(t, dog(1, "")+dog(3, ""), diagnose.KindWatchdogTimeout, 1, 3); ok && !f.Shared {
		t.Errorf("two of four: want the shared timeout: %+v", f)
	}
	firstFault(t, dog(1, "PG 2 ")+dog(3, "PG 2 ")+dog(2, "PG 2 "), diagnose.KindWatchdogTimeout, 1, 2, 3)
}

// TestWatchWaitNote: one rank's timeout alone, the first fault, says where it waited and that
// the log does not say for whom; a timeout that follows another fault does not.
func TestWatchWaitNote(t *testing.T) {
	const dog = "[E ProcessGroupNCCL.cpp:828] [Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=473096, OpType=_ALLGATHER_BASE, Timeout(ms)=1800000) ran for 1800004 milliseconds before timing out.\n"
	if f, ok := firstFault(t, dog, diagnose.KindWatchdogTimeout, 4); ok && f.Summary != "Rank 4's PyTorch watchdog timed out in _ALLGATHER_BASE (SeqNum 473096): it waited there for a rank that did not join the collective (behind, or gone); the log does not say which." {
		t.Errorf("rank 4 alone: %q", f.Summary)
	}
}

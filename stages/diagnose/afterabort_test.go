package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// abortLines: rank 1 logs its peer closing, aborts its communicator, then calls NCCL on it
// (the WARN that no ranks are left, and its chain).
var abortLines = []string{
	"h0:100:200 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE",
	"h1:101:201 [1] NCCL INFO comm 0xa rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE",
	"h1:101:201 [1] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer h0<4242>",
	"h1:101:201 [1] NCCL INFO comm 0xa rank 1 nranks 2 cudaDev 1 busId 2000 - Abort COMPLETE",
	"h1:101:202 [1] misc/argcheck.cc:39 NCCL WARN AllGather : invalid root 0 (root should be in the 0..-1 range)",
	"h1:101:202 [1] NCCL INFO enqueue.cc:1342 -> 4",
}

func diagnoseLines(t *testing.T, lines []string) diagnose.Report {
	t.Helper()
	return diagnoseBytes(t, "abort.log", []byte(strings.Join(lines, "\n")+"\n"), 0)
}

// TestWarnAfterAbort: a WARN a process prints after its own Abort COMPLETE folds under the
// cause it named before (here the errors it passed on): the first finding is the one the log
// gives without it, not an invalid call.
func TestWarnAfterAbort(t *testing.T) {
	with, without := diagnoseLines(t, abortLines), diagnoseLines(t, abortLines[:4])
	if len(with.Findings) == 0 || with.Findings[0].Kind == diagnose.KindInvalidUsage {
		t.Fatalf("first finding %+v, want no invalid call", with.Findings)
	}
	if with.Findings[0].Summary != without.Findings[0].Summary {
		t.Errorf("first finding %q, want %q as without the WARN", with.Findings[0].Summary, without.Findings[0].Summary)
	}
}

// TestWarnAfterAbortAlone: where the process named no cause before its abort, the WARN after
// it is filed as today (the invalid call); a harmless WARN after a clean abort of every rank
// raises nothing.
func TestWarnAfterAbortAlone(t *testing.T) {
	alone := append([]string{abortLines[0], abortLines[1], abortLines[3]}, abortLines[4:]...)
	if r := diagnoseLines(t, alone); len(r.Findings) == 0 || r.Findings[0].Kind != diagnose.KindInvalidUsage {
		t.Errorf("first finding %+v, want the invalid call", r.Findings)
	}
	clean := []string{
		abortLines[0], abortLines[1], abortLines[3],
		"h0:100:200 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 busId 1000 - Abort COMPLETE",
		"h1:101:202 [1] transport/net_ib.cc:1287 NCCL WARN NET/IB : Got async event : port error",
	}
	if r := diagnoseLines(t, clean); r.Status == diagnose.StatusFault {
		t.Errorf("a clean abort then a harmless WARN: fault:\n%s", js(r))
	}
}

package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestCaughtTimeout: PyTorch 1.x's timeout raised on the waiting thread (`RuntimeError: [Rank
// 1] Caught collective operation timeout: WorkNCCL(...)`) is that rank's watchdog timeout, not
// a crash; two ranks' at one work are the shared timeout.
func TestCaughtTimeout(t *testing.T) {
	line := func(r int) string {
		return "RuntimeError: [Rank " + string(rune('0'+r)) + "] Caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, TensorShape=[], Timeout(ms)=10800000) ran for 10800031 milliseconds before timing out.\n"
	}
	if f, ok := firstFault(t, "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"+line(1), diagnose.KindWatchdogTimeout, 1); ok &&
		!strings.Contains(f.Evidence[0].Text, "at work 1 (BROADCAST), raised as RuntimeError") {
		t.Errorf("want the timeout's work and op: %+v", f.Evidence)
	}
	if f, ok := firstFault(t, line(0)+line(1), diagnose.KindWatchdogTimeout, 0, 1); ok && !f.Shared {
		t.Errorf("two ranks at one work: want shared: %+v", f)
	}
}

package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestDesyncReport: PyTorch's desync report names the ranks out of step; they are the first
// fault (behind), and the watchdog's timeout follows them. Its forms: a rank that finished a
// collective but did not join the next, one that joined but did not finish it, ranks that
// never joined one; its lines tabbed, or pasted with blanks.
func TestDesyncReport(t *testing.T) {
	const dog = "[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=41, OpType=ALLGATHER, NumelIn=8, NumelOut=32, Timeout(ms)=60000) ran for 60412 milliseconds before timing out.\n"
	const head = "\t - [2] Timeout at collective: ALLGATHER, #42\n\t - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:\n"
	cases := []struct {
		name, report string
		ranks        []int64
		words        string
	}{
		{"not joined", "\t     [3] finished collective #41, but didn't join collective #42 (count from 1)\n", []int64{3}, "rank 3 finished collective #41 but did not join #42"},
		{"both", "\t   - [0, 1] joined but didn't finish collective #41 (count from 1)\n\t     [3] finished collective #41, but didn't join collective #42 (count from 1)\n",
			[]int64{0, 1, 3}, "ranks 0 and 1 joined collective #41 but did not finish it; rank 3 finished"},
		{"pasted with blanks", "     [3] finished collective #41, but didn't join collective #42 (count from 1)\n", []int64{3}, "rank 3 finished"},
	}
	for _, c := range cases {
		f, ok := firstFault(t, dog+head+c.report, diagnose.KindBehind, c.ranks...)
		if ok && !strings.Contains(f.Summary, c.words) {
			t.Errorf("%s: %s", c.name, f.Summary)
		}
	}
	const never = " - To our best knowledge, ranks [5, 6] are the lagging ranks that caused this timeout. They never joined any collectives\n"
	firstFault(t, dog+never, diagnose.KindBehind, 5, 6)
	r := diagnoseBytes(t, "job.log", []byte(dog+head+"\t     [3] finished collective #41, but didn't join collective #42 (count from 1)\n"), 0)
	if len(r.Findings) < 2 || r.Findings[1].Kind != diagnose.KindWatchdogTimeout || r.Findings[1].Follows == nil {
		t.Errorf("the timeout: want it after the report's ranks:\n%s", js(r))
	}
	quietIn(t, "   [3] finished reading the dataset, 5123 samples\n", " - [0] Timeout at collective: ALLGATHER, #42\n")
}

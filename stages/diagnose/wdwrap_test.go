package diagnose_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/diagnose"
)

// wrappedTimeout is rank r's watchdog timeout line wrapped after its head, the tuple on the
// next line with the head's prefix (prefixed) or none.
func wrappedTimeout(r int, prefixed bool) []string {
	pre := fmt.Sprintf("node-a [stderr] [rank%d]:", r)
	head := pre + fmt.Sprintf("[E1016 03:31:38.%09d ProcessGroupNCCL.cpp:607] [Rank %d] Watchdog caught collective operation timeout: ", 928019586+r, r)
	body := "WorkNCCL(SeqNum=2070, OpType=REDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600034 milliseconds before timing out."
	if prefixed {
		body = pre + body
	}
	return []string{head, body}
}

// TestWrappedWatchdog: a watchdog timeout line wrapped after `timeout:` is read as the one
// line it was, with the tuple's prefix or without, read whole or in chunks that cut between
// the two halves: every rank timing out is the shared timeout.
func TestWrappedWatchdog(t *testing.T) {
	var lines []string
	for r := range 4 {
		lines = append(lines, wrappedTimeout(r, r%2 == 1)...)
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	for _, chunk := range []int{0, 100, 200, 256} {
		r := diagnoseBytes(t, "wd.log", data, chunk)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Errorf("chunk %d: status %s (%s), want fault", chunk, r.Status, r.Reason)
			continue
		}
		f := r.Findings[0]
		if f.Kind != diagnose.KindWatchdogTimeout || !f.Shared || !slices.Equal(f.Ranks, []int64{0, 1, 2, 3}) {
			t.Errorf("chunk %d: first finding %s shared %v ranks %v, want the shared timeout of ranks 0-3: %s", chunk, f.Kind, f.Shared, f.Ranks, f.Summary)
		}
		if f.Evidence[0].Line != 1 {
			t.Errorf("chunk %d: evidence at line %d, want the head's line 1", chunk, f.Evidence[0].Line)
		}
	}
}

// TestWrappedWatchdogNotJoined: a tuple line under another rank's head, or not right under
// a head, is not a timeout: nothing is joined, and the log stays healthy.
func TestWrappedWatchdogNotJoined(t *testing.T) {
	data, _ := generate(t, gen.Config{Seed: 3, Ranks: 8, RanksPerHost: 8, Steps: 4})
	own := wrappedTimeout(1, true)
	other := wrappedTimeout(2, true)
	for name, extra := range map[string][]string{
		"another rank's tuple": {own[0], other[1]},
		"a line between":       {own[0], "[rank1]: step 3 loss 1.25", own[1]},
		"a debug head":         {"[rank1]:[I1016 03:31:38.928019586 ProcessGroupNCCL.cpp:900] [PG 0 Rank 1] Enqueued work:", own[1]},
	} {
		log := append(bytes.Clone(data), []byte(strings.Join(extra, "\n")+"\n")...)
		if r := diagnoseBytes(t, "wd.log", log, 0); r.Status == diagnose.StatusFault {
			t.Errorf("%s: fault, want no timeout:\n%s", name, js(r))
		}
	}
}

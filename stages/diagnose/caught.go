package diagnose

import (
	"fmt"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// PyTorch 1.8-1.10 with NCCL_BLOCKING_WAIT raises a collective's timeout on the thread that
// waits for it, as an exception rather than the watchdog's line:
//
//	RuntimeError: [Rank 1] Caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, TensorShape=[], Timeout(ms)=10800000) ran for 10800031 milliseconds before timing out.
//
// It is that rank's collective timing out, read as the watchdog's timeout is, not a crash.

// caughtHead opens the timeout's message after the rank's tag.
const caughtHead = "Caught collective operation timeout: WorkNCCL("

// caughtTimeoutItem is the watchdog-timeout item of an exception that carries the timeout,
// false for any other failure line.
func caughtTimeoutItem(n int64, l *parser.Line) (Item, bool) {
	f := l.Fail
	if f.Event != parser.FailureException {
		return Item{}, false
	}
	t := f.Text
	if !strings.HasPrefix(t, "[Rank ") {
		return Item{}, false // the message opens with the rank's tag: most exceptions fail here
	}
	i := strings.Index(t, caughtHead)
	if i < 0 {
		return Item{}, false
	}
	it := newItem(evWatchdog, n, l)
	if r := headRankBefore([]byte(t), i); r >= 0 && (l.Rank < 0 || l.Rank == r) {
		it.Rank, it.RankLast = r, r // stuck.go: the `[Rank N]` tag before the message
	}
	fields := t[i+len(caughtHead):]
	if end := strings.IndexByte(fields, ')'); end >= 0 {
		fields = fields[:end]
	}
	op := ""
	for _, kv := range strings.Split(fields, ", ") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "SeqNum":
			if s, m := decimalAt(v); m > 0 && m == len(v) {
				it.Seq = s
			}
		case "OpType":
			op = v
		}
	}
	it.Name = parser.WatchdogTimeout.String()
	it.Text = fmt.Sprintf("rank %d: watchdog %s", it.Rank, parser.WatchdogTimeout)
	if it.Seq >= 0 {
		it.Text += fmt.Sprintf(" at work %d", it.Seq)
	}
	if op != "" {
		it.Text += " (" + op + ")"
	}
	it.Text += ", raised as " + f.Exception
	return it, true
}

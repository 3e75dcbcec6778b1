package diagnose

import (
	"bytes"
	"fmt"
	"slices"
)

// Ray deduplicates the lines its workers print: the first of a pattern (its words with numbers
// ignored) is printed at once, and the same line from other workers within a few seconds is
// folded into one more, with a count:
//
//	(WorkerDict pid=2394310) [rank3]:[E429 12:07:50.216898418 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, ...) ran for 1800081 milliseconds before timing out. [repeated 3x across cluster]
//
// A watchdog line so folded is that many more processes' timeouts, whose ranks the log does
// not show: they count toward a timeout every rank shares (the job's other ranks waited too).

const rayRepeatTail = "x across cluster]"

// rayRepeats is how many more workers printed the line t, by Ray's ` [repeated Nx across
// cluster]` at its end; 0 where it has none.
func rayRepeats(t []byte) int64 {
	t = bytes.TrimRight(t, " \r\n")
	if !bytes.HasSuffix(t, []byte(rayRepeatTail)) {
		return 0
	}
	i := bytes.LastIndex(t, []byte(" [repeated "))
	if i < 0 {
		return 0
	}
	num := t[i+len(" [repeated ") : len(t)-len(rayRepeatTail)]
	v, n := decimalAt(num)
	if n == 0 || n != len(num) || v > maxRayRepeats {
		return 0
	}
	return v
}

// repeated notes on the watchdog items p kept from index from on, of the line t, how many
// more workers Ray folded into t.
func (p *Part) repeated(from int, t []byte) {
	for i := max(from, 0); i < len(p.items); i++ {
		if it := &p.items[i]; it.Ev == evWatchdog {
			it.Also = rayRepeats(t)
		}
	}
}

// maxRayRepeats bounds the count read: a cluster's workers, not any number a line holds.
const maxRayRepeats = 1 << 20

// watchRepeats is how many more processes than its ranks name a watchdog finding stands for:
// the most any of its lines says Ray folded (the same timeout's lines of one worker each
// carry the count of the others').
func watchRepeats(c *cand) int64 {
	var n int64
	for _, it := range c.items {
		if it.Ev == evWatchdog {
			n = max(n, it.Also)
		}
	}
	return n
}

// repeatsNote names the processes Ray folded into a shared watchdog finding's lines; "" where
// there are none.
func repeatsNote(c *cand) string {
	n := watchRepeats(c)
	if n == 0 {
		return ""
	}
	rs := slices.Clone(c.ranks)
	slices.Sort(rs)
	named := "ranks " + rankList(rs)
	if len(rs) == 1 {
		named = "rank " + itoa(rs[0])
	}
	return fmt.Sprintf("%s, and %d more processes whose lines Ray folded into theirs: `[repeated %dx across cluster]`", named, n, n)
}

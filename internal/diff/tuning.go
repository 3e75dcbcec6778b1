package diff

import (
	"fmt"

	"github.com/nccllog/nccllog/stages/info"
)

// tuning compares, per op, the algorithm and protocol NCCL chose where both runs chose one
// for the same sizes: each pair of size ranges (one per run) that overlap and whose choice
// differs. Sizes only one run sent are not compared (the choice there says nothing of a
// change); an op tuned in one run only is listed as such.
func tuning(l *list, a, b *Side) {
	ta, tb := tuneByOp(a.Info.Tuning), tuneByOp(b.Info.Tuning)
	for _, op := range unionKeys(ta, tb) {
		ra, rb := ta[op], tb[op]
		switch {
		case len(ra) == 0:
			l.text("tuning "+op, Absent, "tuned")
		case len(rb) == 0:
			l.text("tuning "+op, "tuned", Absent)
		default:
			tuneOverlaps(l, op, ra, rb)
		}
	}
}

// tuneOverlaps adds each overlap of a range of ra with one of rb whose choice differs.
func tuneOverlaps(l *list, op string, ra, rb []info.TuneRow) {
	for _, x := range ra {
		for _, y := range rb {
			lo, hi := max(x.LoBytes, y.LoBytes), min(x.HiBytes, y.HiBytes)
			if lo > hi {
				continue
			}
			l.text(fmt.Sprintf("tuning %s %d-%d B", op, lo, hi), x.Algo+"/"+x.Proto, y.Algo+"/"+y.Proto)
		}
	}
}

// tuneByOp is the ranges of each op, in info's order (by size).
func tuneByOp(rows []info.TuneRow) map[string][]info.TuneRow {
	out := map[string][]info.TuneRow{}
	for _, t := range rows {
		op := t.Op
		if op == "" {
			op = "(op not printed)"
		}
		out[op] = append(out[op], t)
	}
	return out
}

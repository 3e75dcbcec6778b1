package diff

import (
	"fmt"
	"strings"

	"github.com/nccllog/nccllog/stages/info"
)

// tuning compares, per op, the algorithm and protocol NCCL chose over each size range.
func tuning(l *list, a, b *Side) {
	l.keyedDiff("", tuneRanges(a.Info.Tuning), tuneRanges(b.Info.Tuning))
}

// tuneRanges is, per op, its ranges as "lo-hi B algo/proto", in info's order.
func tuneRanges(rows []info.TuneRow) map[string]string {
	parts := map[string][]string{}
	for _, t := range rows {
		op := t.Op
		if op == "" {
			op = "(op not printed)"
		}
		k := "tuning " + op
		parts[k] = append(parts[k], fmt.Sprintf("%d-%d B %s/%s", t.LoBytes, t.HiBytes, t.Algo, t.Proto))
	}
	out := map[string]string{}
	for k, p := range parts {
		out[k] = strings.Join(p, "; ")
	}
	return out
}

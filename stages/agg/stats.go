package agg

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"

	"cmp"
	"slices"
)

// OpStats is the size distribution of one op's calls.
type OpStats struct {
	Op    parser.Op
	Calls int64
	Min   int64
	Max   int64
	Total int64 // at most MaxBytes
}

// Avg is the mean bytes per call.
func (s OpStats) Avg() float64 {
	if s.Calls == 0 {
		return 0
	}
	return float64(s.Total) / float64(s.Calls)
}

// Merge combines two OpStats of the same op.
func (s OpStats) Merge(o OpStats) OpStats {
	if s.Calls == 0 {
		return o
	}
	if o.Calls == 0 {
		return s
	}
	return OpStats{Op: s.Op, Calls: s.Calls + o.Calls, Min: min(s.Min, o.Min),
		Max: max(s.Max, o.Max), Total: stages.AddBytes(s.Total, o.Total)}
}

// Stats returns per-op stats ordered by op.
func (a *Agg) Stats() []OpStats {
	if a.perOp != nil {
		return a.opStats()
	}
	byOp := make(map[parser.Op]OpStats)
	a.flush()
	for k, n := range a.groups {
		b := k.Bytes()
		byOp[k.Op] = byOp[k.Op].Merge(OpStats{Op: k.Op, Calls: n, Min: b, Max: b, Total: stages.MulBytes(b, n)})
	}
	out := make([]OpStats, 0, len(byOp))
	for _, s := range byOp {
		out = append(out, s)
	}
	slices.SortFunc(out, func(x, y OpStats) int { return cmp.Compare(x.Op, y.Op) })
	return out
}

package agg

import (
	"cmp"
	"errors"
	"maps"
	"slices"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// OpSum is what stats and hist print of one op: its size distribution and its calls in each
// bucket cut by DefaultEdges. An Agg made for them (AggStage.PerOp) keeps one OpSum per op
// instead of a count per distinct (op, count, datatype), so its memory does not grow with
// the call shapes of the log.
type OpSum struct {
	OpStats
	Hist [4]int64 // calls per bucket of DefaultEdges
}

// newPerOpAgg returns an empty Agg that keeps per-op sums only.
func newPerOpAgg() *Agg {
	a := NewAgg()
	a.perOp = make(map[parser.Op]*OpSum)
	return a
}

// addOp counts n calls of k into its op's sums.
func (a *Agg) addOp(k AggKey, n int64) {
	b := k.Bytes()
	a.mergeOp(OpSum{OpStats: OpStats{Op: k.Op, Calls: n, Min: b, Max: b, Total: stages.MulBytes(b, n)}}, bucket(b), n)
}

// mergeOp adds s (and n calls in bucket i, where i >= 0) to its op's sums.
func (a *Agg) mergeOp(s OpSum, i int, n int64) {
	t := a.perOp[s.Op]
	if t == nil {
		t = &OpSum{}
		a.perOp[s.Op] = t
	}
	t.OpStats = t.OpStats.Merge(s.OpStats)
	for j, v := range s.Hist {
		t.Hist[j] += v
	}
	if i >= 0 {
		t.Hist[i] += n
	}
}

// bucket is the index of the DefaultEdges bucket that holds a call of b bytes.
func bucket(b int64) int {
	i, at := slices.BinarySearch(DefaultEdges, b) // the first edge above the size
	if at {
		i++
	}
	return i
}

// opSums returns the per-op sums ordered by op.
func (a *Agg) opSums() []OpSum {
	out := make([]OpSum, 0, len(a.perOp))
	for _, op := range slices.Sorted(maps.Keys(a.perOp)) {
		out = append(out, *a.perOp[op])
	}
	return out
}

// opStats is Stats of a per-op Agg.
func (a *Agg) opStats() []OpStats {
	out := make([]OpStats, 0, len(a.perOp))
	for _, s := range a.opSums() {
		out = append(out, s.OpStats)
	}
	return out
}

// opHist is Hist of a per-op Agg: its buckets are those of DefaultEdges.
func (a *Agg) opHist() []Bucket {
	var out []Bucket
	for _, s := range a.opSums() {
		for i, n := range s.Hist {
			if n == 0 {
				continue
			}
			b := Bucket{Op: s.Op, Lo: 0, Hi: -1, Calls: n}
			if i > 0 {
				b.Lo = DefaultEdges[i-1]
			}
			if i < len(DefaultEdges) {
				b.Hi = DefaultEdges[i]
			}
			out = append(out, b)
		}
	}
	slices.SortFunc(out, func(x, y Bucket) int { return cmp.Or(cmp.Compare(x.Op, y.Op), cmp.Compare(x.Lo, y.Lo)) })
	return out
}

// errPerOpOnly: per-op sums cannot stand for the table of distinct calls.
var errPerOpOnly = errors.New("per-op sums hold no count per (op, count, datatype)")

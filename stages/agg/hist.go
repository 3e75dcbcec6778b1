package agg

import (
	"github.com/nccllog/nccllog/parser"

	"cmp"
	"slices"
)

// DefaultEdges are the histogram's bucket edges in bytes: [0, 64 KiB), [64 KiB, 1 MiB),
// [1 MiB, 16 MiB), [16 MiB, ∞), as the AWK chain cut them.
var DefaultEdges = []int64{64 << 10, 1 << 20, 16 << 20}

// Bucket is one histogram cell: the calls of Op with Lo <= bytes < Hi (Hi < 0: no upper edge).
type Bucket struct {
	Op    parser.Op
	Lo    int64
	Hi    int64
	Calls int64
}

// Hist returns, per op, the calls in each bucket cut by edges (ascending), ordered by op and
// then by size. Buckets without calls are left out. An Agg of per-op sums (AggStage.PerOp)
// has the buckets of DefaultEdges only.
func (a *Agg) Hist(edges []int64) []Bucket {
	if a.perOp != nil {
		return a.opHist()
	}
	type cell struct {
		op parser.Op
		i  int
	}
	counts := make(map[cell]int64)
	a.flush()
	for k, n := range a.groups {
		i, at := slices.BinarySearch(edges, k.Bytes()) // the first edge above the size
		if at {
			i++
		}
		counts[cell{k.Op, i}] += n
	}
	out := make([]Bucket, 0, len(counts))
	for c, n := range counts {
		b := Bucket{Op: c.op, Lo: 0, Hi: -1, Calls: n}
		if c.i > 0 {
			b.Lo = edges[c.i-1]
		}
		if c.i < len(edges) {
			b.Hi = edges[c.i]
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(x, y Bucket) int { return cmp.Or(cmp.Compare(x.Op, y.Op), cmp.Compare(x.Lo, y.Lo)) })
	return out
}

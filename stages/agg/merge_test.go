package agg_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// rcall is one call as Agg.Add takes it.
type rcall struct {
	op       parser.Op
	count    int64
	datatype parser.Datatype
}

// elemSize is NCCL's element size per datatype, written out again so that the brute-force
// answers do not lean on Datatype.Size.
var elemSize = map[parser.Datatype]int64{0: 1, 1: 1, 2: 4, 3: 4, 4: 8, 5: 8, 6: 2, 7: 4, 8: 8, 9: 2, 10: 1, 11: 1}

// edgeCalls have message sizes exactly at the histogram edges and one byte (or one element)
// below them.
var edgeCalls = []rcall{
	{"AllReduce", 65536, 0}, {"AllReduce", 65535, 1}, {"AllReduce", 16384, 7}, {"AllReduce", 16383, 2},
	{"AllGather", 1 << 20, 10}, {"AllGather", 1<<20 - 1, 11}, {"AllGather", 1 << 17, 8}, {"AllGather", 1<<19 - 1, 9},
	{"ReduceScatter", 16 << 20, 0}, {"ReduceScatter", 16<<20 - 1, 0}, {"ReduceScatter", 8 << 20, 6},
	{"ReduceScatter", 2<<20 - 1, 4},
	{"Broadcast", 1, 0}, {"Broadcast", 1 << 30, 5},
}

func randomCalls(rng *rand.Rand, n int) []rcall {
	ops := []parser.Op{"AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Send", "Recv"}
	counts := []int64{0, -1, 1, 2, 1000, 16383, 16384, 65535, 65536, 1 << 20, 16 << 20}
	out := make([]rcall, n)
	for i := range out {
		c := rcall{op: ops[rng.IntN(len(ops))], datatype: parser.Datatype(rng.IntN(14)) - 1}
		if rng.IntN(2) == 0 {
			c.count = counts[rng.IntN(len(counts))]
		} else {
			c.count = 1 + rng.Int64N(32<<20)
		}
		out[i] = c
	}
	return out
}

func aggOf(calls []rcall) *agg.Agg {
	a := agg.NewAgg()
	for _, c := range calls {
		a.Add(c.op, c.count, c.datatype)
	}
	return a
}

// splitRandom cuts calls into n consecutive parts of random sizes (some empty).
func splitRandom(rng *rand.Rand, calls []rcall, n int) [][]rcall {
	cuts := []int{0, len(calls)}
	for range n - 1 {
		cuts = append(cuts, rng.IntN(len(calls)+1))
	}
	slices.Sort(cuts)
	parts := make([][]rcall, n)
	for i := range parts {
		parts[i] = calls[cuts[i]:cuts[i+1]]
	}
	return parts
}

// bruteRows counts the calls per signature and per drop reason and sorts them as the
// documentation of Rows and DroppedRows says.
func bruteRows(calls []rcall) ([]agg.AggRow, []agg.DropRow) {
	groups := map[agg.AggKey]int64{}
	drops := map[agg.DropKey]int64{}
	for _, c := range calls {
		size, known := elemSize[c.datatype]
		switch {
		case c.count <= 0:
			drops[agg.DropKey{c.op, fmt.Sprintf("count %d", c.count)}]++
		case !known || size == 0:
			drops[agg.DropKey{c.op, fmt.Sprintf("unknown datatype %d", c.datatype)}]++
		default:
			groups[agg.AggKey{c.op, c.count, c.datatype}]++
		}
	}
	rows := []agg.AggRow{}
	for k, n := range groups {
		rows = append(rows, agg.AggRow{k, n})
	}
	slices.SortFunc(rows, func(x, y agg.AggRow) int {
		return cmp.Or(cmp.Compare(x.Op, y.Op), cmp.Compare(x.Count*elemSize[x.Datatype], y.Count*elemSize[y.Datatype]),
			cmp.Compare(x.Count, y.Count), cmp.Compare(x.Datatype, y.Datatype))
	})
	dropRows := []agg.DropRow{}
	for k, n := range drops {
		dropRows = append(dropRows, agg.DropRow{k, n})
	}
	slices.SortFunc(dropRows, func(x, y agg.DropRow) int {
		return cmp.Or(cmp.Compare(x.Op, y.Op), strings.Compare(x.Reason, y.Reason))
	})
	return rows, dropRows
}

// bruteStats and bruteHist go call by call.
func bruteStats(calls []rcall) []agg.OpStats {
	by := map[parser.Op]*agg.OpStats{}
	for _, c := range calls {
		size := elemSize[c.datatype]
		if c.count <= 0 || size == 0 {
			continue
		}
		b := c.count * size
		s := by[c.op]
		if s == nil {
			s = &agg.OpStats{Op: c.op, Min: b, Max: b}
			by[c.op] = s
		}
		s.Calls++
		s.Total += b
		s.Min = min(s.Min, b)
		s.Max = max(s.Max, b)
	}
	out := []agg.OpStats{}
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(x, y agg.OpStats) int { return cmp.Compare(x.Op, y.Op) })
	return out
}

func bruteHist(calls []rcall, edges []int64) []agg.Bucket {
	type cell struct {
		op     parser.Op
		lo, hi int64
	}
	counts := map[cell]int64{}
	for _, c := range calls {
		size := elemSize[c.datatype]
		if c.count <= 0 || size == 0 {
			continue
		}
		b := c.count * size
		lo, hi := int64(0), int64(-1)
		for _, e := range edges {
			if b >= e {
				lo = e
			} else {
				hi = e
				break
			}
		}
		counts[cell{c.op, lo, hi}]++
	}
	out := []agg.Bucket{}
	for c, n := range counts {
		out = append(out, agg.Bucket{Op: c.op, Lo: c.lo, Hi: c.hi, Calls: n})
	}
	slices.SortFunc(out, func(x, y agg.Bucket) int { return cmp.Or(cmp.Compare(x.Op, y.Op), cmp.Compare(x.Lo, y.Lo)) })
	return out
}

// TestAggMergeAssociativeCommutative merges the Aggs of the parts of a list of calls in
// several groupings and orders: every result must be the Agg of the whole list.
func TestAggMergeAssociativeCommutative(t *testing.T) {
	groupings := []struct {
		name  string
		merge func(rng *rand.Rand, parts []*agg.Agg) *agg.Agg
	}{
		{"left fold", func(_ *rand.Rand, ps []*agg.Agg) *agg.Agg {
			for _, p := range ps[1:] {
				ps[0].Merge(p)
			}
			return ps[0]
		}},
		{"right fold", func(_ *rand.Rand, ps []*agg.Agg) *agg.Agg {
			acc := ps[len(ps)-1]
			for i := len(ps) - 2; i >= 0; i-- {
				ps[i].Merge(acc)
				acc = ps[i]
			}
			return acc
		}},
		{"reversed", func(_ *rand.Rand, ps []*agg.Agg) *agg.Agg {
			for i := len(ps) - 2; i >= 0; i-- {
				ps[len(ps)-1].Merge(ps[i])
			}
			return ps[len(ps)-1]
		}},
		{"pairs", func(_ *rand.Rand, ps []*agg.Agg) *agg.Agg {
			for len(ps) > 1 {
				var next []*agg.Agg
				for i := 0; i < len(ps); i += 2 {
					if i+1 < len(ps) {
						ps[i].Merge(ps[i+1])
					}
					next = append(next, ps[i])
				}
				ps = next
			}
			return ps[0]
		}},
		{"shuffled into empty", func(rng *rand.Rand, ps []*agg.Agg) *agg.Agg {
			acc := agg.NewAgg()
			for _, i := range rng.Perm(len(ps)) {
				acc.Merge(ps[i])
			}
			return acc
		}},
	}
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 42))
		calls := append(randomCalls(rng, 400), edgeCalls...)
		rng.Shuffle(len(calls), func(i, j int) { calls[i], calls[j] = calls[j], calls[i] })
		wantRows, wantDrops := bruteRows(calls)
		whole := aggOf(calls)
		if diff := stagetest.DiffSlices(wantRows, whole.Rows()); diff != "" {
			t.Fatalf("seed %d: Rows of one Agg (-brute +got):\n%s", seed, diff)
		}
		if diff := stagetest.DiffSlices(wantDrops, whole.DroppedRows()); diff != "" {
			t.Fatalf("seed %d: DroppedRows of one Agg (-brute +got):\n%s", seed, diff)
		}
		parts := splitRandom(rng, calls, 2+int(seed%6))
		for _, g := range groupings {
			aggs := make([]*agg.Agg, len(parts))
			for i, p := range parts {
				aggs[i] = aggOf(p)
			}
			got := g.merge(rng, aggs)
			if diff := stagetest.DiffSlices(wantRows, got.Rows()); diff != "" {
				t.Errorf("seed %d, %d parts, %s: Rows (-whole +merged):\n%s", seed, len(parts), g.name, diff)
			}
			if diff := stagetest.DiffSlices(wantDrops, got.DroppedRows()); diff != "" {
				t.Errorf("seed %d, %d parts, %s: DroppedRows (-whole +merged):\n%s", seed, len(parts), g.name, diff)
			}
		}
	}
}

// TestAggMergeLeavesArgument: merging o into a must not change o.
func TestAggMergeLeavesArgument(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	a, o := aggOf(randomCalls(rng, 100)), aggOf(randomCalls(rng, 100))
	rows, drops := o.Rows(), o.DroppedRows()
	a.Merge(o)
	once, onceDrops := a.Rows(), a.DroppedRows()
	a.Merge(a) // merging into itself doubles every count
	for i := range once {
		once[i].Calls *= 2
	}
	for i := range onceDrops {
		onceDrops[i].Calls *= 2
	}
	if diff := gocmp.Diff(once, a.Rows()); diff != "" {
		t.Errorf("Merge into itself did not double every count (-want +got):\n%s", diff)
	}
	if diff := gocmp.Diff(onceDrops, a.DroppedRows()); diff != "" {
		t.Errorf("Merge into itself did not double every dropped count (-want +got):\n%s", diff)
	}
	if diff := gocmp.Diff(rows, o.Rows()); diff != "" {
		t.Errorf("Merge changed its argument's Rows:\n%s", diff)
	}
	if diff := gocmp.Diff(drops, o.DroppedRows()); diff != "" {
		t.Errorf("Merge changed its argument's DroppedRows:\n%s", diff)
	}
}

// TestAggMergeIntoItself: a.Merge(a) doubles every count, also where a holds more signatures
// than its front table, so that merging moves entries between the table and the map.
func TestAggMergeIntoItself(t *testing.T) {
	a := agg.NewAgg()
	var calls []rcall
	for i := range 3000 {
		c := rcall{op: []parser.Op{"AllReduce", "AllGather", "Broadcast"}[i%3], count: int64(1 + i%1000), datatype: parser.Datatype(i % 10)}
		for range 1 + i%3 {
			a.Add(c.op, c.count, c.datatype)
			calls = append(calls, c, c)
		}
	}
	a.Merge(a)
	wantRows, _ := bruteRows(calls)
	if diff := gocmp.Diff(wantRows, a.Rows()); diff != "" {
		t.Errorf("a.Merge(a) (-doubled +got):\n%s", diff)
	}
}

// TestAggReadsBetweenAdds adds runs of equal calls (as the ranks of a job issue them) and
// reads or merges the Agg at random points in between: every read must count every call added
// so far, whatever Add still holds back.
func TestAggReadsBetweenAdds(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, 5))
		base := randomCalls(rng, 30)
		a, other := agg.NewAgg(), agg.NewAgg()
		var inA, inOther []rcall
		for step := 0; step < 300; step++ {
			c := base[rng.IntN(len(base))]
			for range 1 + rng.IntN(4) {
				if rng.IntN(3) == 0 {
					other.Add(c.op, c.count, c.datatype)
					inOther = append(inOther, c)
				} else {
					a.Add(c.op, c.count, c.datatype)
					inA = append(inA, c)
				}
			}
			what := fmt.Sprintf("seed %d step %d", seed, step)
			switch rng.IntN(8) {
			case 0:
				wantRows, _ := bruteRows(inA)
				if diff := gocmp.Diff(wantRows, a.Rows()); diff != "" {
					t.Fatalf("%s: Rows (-want +got):\n%s", what, diff)
				}
			case 1:
				var n int64
				for _, r := range bruteStats(inA) {
					n += r.Calls
				}
				if got := a.Calls(); got != n {
					t.Fatalf("%s: Calls() = %d, want %d", what, got, n)
				}
			case 2:
				if diff := gocmp.Diff(bruteStats(inA), a.Stats()); diff != "" {
					t.Fatalf("%s: Stats (-want +got):\n%s", what, diff)
				}
			case 3:
				if diff := gocmp.Diff(bruteHist(inA, agg.DefaultEdges), a.Hist(agg.DefaultEdges)); diff != "" {
					t.Fatalf("%s: Hist (-want +got):\n%s", what, diff)
				}
			case 4:
				// Merge other in: other must still count its own calls. Then start it afresh.
				a.Merge(other)
				inA = append(inA, inOther...)
				wantRows, _ := bruteRows(inOther)
				if diff := gocmp.Diff(wantRows, other.Rows()); diff != "" {
					t.Fatalf("%s: the merged Agg's Rows (-want +got):\n%s", what, diff)
				}
				other, inOther = agg.NewAgg(), nil
			case 5:
				// Merge a into other and go on with other.
				other.Merge(a)
				a, inA = other, append(inOther, inA...)
				other, inOther = agg.NewAgg(), nil
			}
		}
		wantRows, wantDrops := bruteRows(inA)
		if diff := gocmp.Diff(wantRows, a.Rows()); diff != "" {
			t.Errorf("seed %d: final Rows (-want +got):\n%s", seed, diff)
		}
		if diff := gocmp.Diff(wantDrops, a.DroppedRows()); diff != "" {
			t.Errorf("seed %d: final DroppedRows (-want +got):\n%s", seed, diff)
		}
	}
}

// TestStatsAndHistBruteForce checks per-op stats and the histogram against a call-by-call
// computation, on random calls and on sizes at and just below every edge.
func TestStatsAndHistBruteForce(t *testing.T) {
	for seed := uint64(0); seed <= 10; seed++ {
		calls := edgeCalls
		if seed > 0 {
			calls = append(randomCalls(rand.New(rand.NewPCG(seed, 3)), 300), edgeCalls...)
		}
		a := aggOf(calls)
		if diff := gocmp.Diff(bruteStats(calls), a.Stats()); diff != "" {
			t.Errorf("seed %d: Stats (-brute +got):\n%s", seed, diff)
		}
		if diff := gocmp.Diff(bruteHist(calls, agg.DefaultEdges), a.Hist(agg.DefaultEdges)); diff != "" {
			t.Errorf("seed %d: Hist (-brute +got):\n%s", seed, diff)
		}
		edges := []int64{1, 100, 4096, 65537}
		if diff := gocmp.Diff(bruteHist(calls, edges), a.Hist(edges)); diff != "" {
			t.Errorf("seed %d: Hist(%v) (-brute +got):\n%s", seed, edges, diff)
		}
		var n int64
		for _, s := range a.Stats() {
			n += s.Calls
		}
		if n != a.Calls() {
			t.Errorf("seed %d: Stats count %d calls, Calls() %d", seed, n, a.Calls())
		}
	}
}

// TestHistEdges spells out the bucket of every size at and around the default edges.
func TestHistEdges(t *testing.T) {
	const k64, m1, m16 = 65536, 1048576, 16777216
	tests := []struct {
		count    int64
		datatype parser.Datatype
		lo, hi   int64
	}{
		{1, 0, 0, k64},
		{k64 - 1, 0, 0, k64},
		{k64, 0, k64, m1},
		{k64 / 4, 7, k64, m1},  // fp32: 65536 bytes
		{k64/2 - 1, 9, 0, k64}, // bf16: 65534 bytes
		{m1 - 1, 1, k64, m1},
		{m1, 1, m1, m16},
		{m1 / 8, 4, m1, m16}, // int64
		{m16 - 1, 10, m1, m16},
		{m16, 11, m16, -1},
		{m16 / 2, 6, m16, -1}, // fp16
		{1 << 40, 0, m16, -1},
	}
	for _, tc := range tests {
		a := agg.NewAgg()
		a.Add("AllReduce", tc.count, tc.datatype)
		want := []agg.Bucket{{Op: "AllReduce", Lo: tc.lo, Hi: tc.hi, Calls: 1}}
		if diff := gocmp.Diff(want, a.Hist(agg.DefaultEdges)); diff != "" {
			t.Errorf("count %d datatype %d: (-want +got):\n%s", tc.count, tc.datatype, diff)
		}
		b := tc.count * elemSize[tc.datatype]
		wantStats := []agg.OpStats{{Op: "AllReduce", Calls: 1, Min: b, Max: b, Total: b}}
		if diff := gocmp.Diff(wantStats, a.Stats()); diff != "" {
			t.Errorf("count %d datatype %d: Stats (-want +got):\n%s", tc.count, tc.datatype, diff)
		}
	}
}

// TestAggDropped: a count of zero or less and a datatype NCCL does not define are left out of
// the groups, stats and histogram, and counted by reason.
func TestAggDropped(t *testing.T) {
	a := agg.NewAgg()
	a.Add("AllReduce", 0, 7)
	a.Add("AllReduce", 0, 7)
	a.Add("AllReduce", -3, 7)
	a.Add("AllReduce", 4, 12)
	a.Add("AllGather", 4, -1)
	a.Add("AllGather", 0, 12) // the count is looked at first
	a.Add("Broadcast", 8, 11)
	wantDrops := []agg.DropRow{
		{agg.DropKey{"AllGather", "count 0"}, 1},
		{agg.DropKey{"AllGather", "unknown datatype -1"}, 1},
		{agg.DropKey{"AllReduce", "count -3"}, 1},
		{agg.DropKey{"AllReduce", "count 0"}, 2},
		{agg.DropKey{"AllReduce", "unknown datatype 12"}, 1},
	}
	if diff := gocmp.Diff(wantDrops, a.DroppedRows()); diff != "" {
		t.Errorf("DroppedRows (-want +got):\n%s", diff)
	}
	wantRows := []agg.AggRow{{agg.AggKey{"Broadcast", 8, 11}, 1}}
	if diff := gocmp.Diff(wantRows, a.Rows()); diff != "" {
		t.Errorf("Rows (-want +got):\n%s", diff)
	}
	if a.Calls() != 1 || len(a.Stats()) != 1 || len(a.Hist(agg.DefaultEdges)) != 1 {
		t.Errorf("Calls %d, Stats %v, Hist %v: want only the Broadcast", a.Calls(), a.Stats(), a.Hist(agg.DefaultEdges))
	}
}

// TestRowsOrder: rows are ordered by op, then bytes, then count, then datatype.
func TestRowsOrder(t *testing.T) {
	a := agg.NewAgg()
	for _, c := range []rcall{{"B", 1, 0}, {"A", 2, 7}, {"A", 8, 0}, {"A", 4, 6}, {"A", 8, 1}, {"A", 1, 8},
		{"A", 1, 4}, {"A", 3, 0}} {
		a.Add(c.op, c.count, c.datatype)
	}
	want := []agg.AggRow{
		{agg.AggKey{"A", 3, 0}, 1}, // 3 bytes: fewer bytes first, though its count is larger
		{agg.AggKey{"A", 1, 4}, 1}, // 8 bytes from here on: count, then datatype
		{agg.AggKey{"A", 1, 8}, 1},
		{agg.AggKey{"A", 2, 7}, 1},
		{agg.AggKey{"A", 4, 6}, 1},
		{agg.AggKey{"A", 8, 0}, 1},
		{agg.AggKey{"A", 8, 1}, 1},
		{agg.AggKey{"B", 1, 0}, 1}, // op first: the smallest call comes last
	}
	if diff := gocmp.Diff(want, a.Rows()); diff != "" {
		t.Errorf("Rows (-want +got):\n%s", diff)
	}
}

package strag

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSketchSameWhateverTheCuts: calls added to sketches in any split and order, then merged
// in any order, keep exactly the positions the definition keeps: the longest run of
// positions, in hash order, whose calls (each position's at most MaxArrivals) fit the budget.
func TestSketchSameWhateverTheCuts(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var calls []call
	for op := range uint64(400) {
		k := PosKey{OpCount: op, Op: "AllReduce", Count: 1024, NRanks: 8}
		for r := range 1 + rng.IntN(8) {
			calls = append(calls, call{k, Arrival{Host: "h", Pid: int64(r), Ns: int64(op*1000) + int64(r), Step: 0}})
		}
	}
	const budget = 300
	want := reference(calls, budget)
	for trial := range 30 {
		rng.Shuffle(len(calls), func(i, j int) { calls[i], calls[j] = calls[j], calls[i] })
		parts := make([]sketch, 1+trial%5)
		for i := range parts {
			parts[i] = newSketch()
			parts[i].budget = budget
		}
		for _, c := range calls {
			s := &parts[rng.IntN(len(parts))]
			if trial%2 == 1 {
				// By position, the sketch merged into holding the greater hashes: what it
				// keeps above the cut of the one merged must go.
				s = &parts[len(parts)-1-int(c.k.hash()>>32*uint64(len(parts))>>32)]
			}
			s.add(c.k, c.k.hash(), 1, []Arrival{c.a})
		}
		for i := len(parts) - 1; i > 0; i-- {
			parts[i-1].merge(&parts[i])
		}
		got := keys(parts[0].sorted())
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: kept %d positions, want %d", trial, len(got), len(want))
		}
	}
}

// call is one call line's position and arrival.
type call struct {
	k PosKey
	a Arrival
}

// reference keeps positions by the definition, from all calls at once.
func reference(calls []call, budget int64) []counted {
	n := map[PosKey]int64{}
	for _, c := range calls {
		n[c.k]++
	}
	var ps []*Position
	for k, c := range n {
		ps = append(ps, &Position{Hash: k.hash(), Key: k, N: c})
	}
	slices.SortFunc(ps, before)
	var w int64
	var out []counted
	for _, p := range ps {
		if w += p.weight(); w > budget {
			break
		}
		out = append(out, counted{p.Key, p.N})
	}
	return out
}

// counted is a kept position's key and how many calls it holds.
type counted struct {
	k PosKey
	n int64
}

func keys(ps []*Position) []counted {
	out := make([]counted, len(ps))
	for i, p := range ps {
		out[i] = counted{p.Key, int64(len(p.Arrivals))}
	}
	return out
}

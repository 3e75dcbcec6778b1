package ranks

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortedWalksAgree: for ranks in rank order, the walks give what the maps give, on
// random communicators with unknown, negative, repeated and out-of-range rank numbers.
func TestSortedWalksAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := 20000
	if testing.Short() {
		cases = 5000 // -short: the first quarter of the same cases (go test ./... tries all 20,000)
	}
	for iter := range cases {
		nranks := int64(rng.IntN(40))
		g := &Group{NRanks: nranks}
		for range rng.IntN(48) {
			rk := int64(rng.IntN(int(nranks)+12)) - 10 // -10..nranks+1
			if rng.IntN(3) == 0 {
				rk = -1
			}
			g.Members = append(g.Members, &Member{Rank: rk, Host: []string{"a", "b", "c"}[rng.IntN(3)], Pid: int64(rng.IntN(4))})
		}
		g.sortMembers()
		if !byRank(g) {
			t.Fatalf("case %d: sortMembers left the ranks out of rank order", iter)
		}
		a, an := absentSorted(g)
		b, bn := absentByMap(g)
		if !slices.Equal(a, b) || an != bn {
			t.Fatalf("case %d: absent %v %d by walk, %v %d by map", iter, a, an, b, bn)
		}
		ra, oka := conflictRank(g)
		rb, okb := conflictByMap(g)
		if ra != rb || oka != okb {
			t.Fatalf("case %d: conflict %d %v by walk, %d %v by map", iter, ra, oka, rb, okb)
		}
		local := int64(1 + rng.IntN(8))
		if na, nb := nodeRanksSorted(g, local), nodeRanksByMap(g, local); !slices.Equal(na, nb) {
			t.Fatalf("case %d: node ranks %v by walk, %v by map", iter, na, nb)
		}
	}
}

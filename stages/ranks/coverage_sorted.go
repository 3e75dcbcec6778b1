package ranks

import (
	"cmp"
	"slices"
)

// Coverage's questions about a communicator's rank numbers (absentRanks, conflict,
// nodeRanks) are answered by a walk of its ranks where they are in rank order, as Groups
// leaves them, rather than through a map of every rank: on a communicator of 4096 ranks the
// maps cost more than the rest of its coverage. Ranks in another order take the maps.

// byRank reports whether g's ranks are in rank order (rankOrder: unknown ranks last).
func byRank(g *Group) bool {
	return slices.IsSortedFunc(g.Members, func(a, b *Member) int { return cmp.Compare(rankOrder(a), rankOrder(b)) })
}

// absentSorted is absentRanks of ranks in rank order.
func absentSorted(g *Group) ([]int64, int64) {
	ms := g.Members
	n := max(g.NRanks-int64(len(ms)), 0)
	if len(ms) > 0 && ms[len(ms)-1].Rank < 0 {
		return nil, n // some rank's number is not known; they sort last
	}
	var out []int64
	j := 0
	for rk := int64(0); rk < g.NRanks && len(out) < 64; rk++ {
		for j < len(ms) && ms[j].Rank < rk {
			j++
		}
		if j == len(ms) || ms[j].Rank != rk {
			out = append(out, rk)
		}
	}
	return out, n
}

// conflictRank is the first rank number two of g's ranks share, as conflict's walk meets it,
// for ranks in rank order; ok is false where none does.
func conflictRank(g *Group) (rank int64, ok bool) {
	for i := 1; i < len(g.Members); i++ {
		if m := g.Members[i]; m.Rank >= 0 && g.Members[i-1].Rank == m.Rank {
			return m.Rank, true
		}
	}
	return 0, false
}

// nodeRanksSorted is nodeRanks of ranks in rank order.
func nodeRanksSorted(g *Group, local int64) []int64 {
	// The nodes of the ranks (rank / local, as nodeRanks divides: an unknown rank's -1 is on
	// node 0), in order.
	var nodes []int64
	for _, m := range g.Members {
		nd := m.Rank / local
		if m.Rank < 0 {
			if nd == 0 && (len(nodes) == 0 || nodes[0] != 0) {
				nodes = slices.Insert(nodes, 0, 0)
			}
			continue
		}
		if len(nodes) == 0 || nodes[len(nodes)-1] != nd {
			nodes = append(nodes, nd)
		}
	}
	var out []int64
	j := 0
	for rk := int64(0); rk < g.NRanks; rk++ {
		nd := rk / local
		for j < len(nodes) && nodes[j] < nd {
			j++
		}
		if j < len(nodes) && nodes[j] == nd {
			out = append(out, rk)
		}
	}
	return out
}

package htmlreport

import (
	"cmp"
	"slices"
)

// maxBins is how many bars the per-rank distribution has at most, however many ranks there are.
const maxBins = 20

// topN is how many ranks the per-rank table lists at each end (least and most volume); with
// up to 2×topN ranks it lists them all.
const topN = 10

// rankBin is one bar of the per-rank distribution: the ranks whose bus bytes fall in [Lo, Hi).
type rankBin struct {
	Lo, Hi float64
	Ranks  int64
}

// rankBins spreads the ranks' bus bytes over at most maxBins bins of equal width between the
// least and the most; ranks that all moved the same volume make one bin.
func rankBins(rs []RankVolume) []rankBin {
	if len(rs) == 0 {
		return nil
	}
	lo, hi := rs[0].BusBytes, rs[0].BusBytes
	for _, r := range rs {
		lo, hi = min(lo, r.BusBytes), max(hi, r.BusBytes)
	}
	n := min(maxBins, len(rs))
	if hi == lo {
		return []rankBin{{Lo: lo, Hi: hi, Ranks: int64(len(rs))}}
	}
	w := (hi - lo) / float64(n)
	bins := make([]rankBin, n)
	for i := range bins {
		bins[i] = rankBin{Lo: lo + float64(i)*w, Hi: lo + float64(i+1)*w}
	}
	for _, r := range rs {
		i := min(int((r.BusBytes-lo)/w), n-1)
		bins[i].Ranks++
	}
	return bins
}

// rankTable is the ranks the table lists: all of them when there are few, else the topN that
// moved the least (a rank that stopped early shows here) and the topN that moved the most.
func rankTable(rs []RankVolume) (rows []RankVolume, elided int) {
	s := slices.Clone(rs)
	slices.SortStableFunc(s, func(a, b RankVolume) int {
		return cmp.Or(cmp.Compare(a.BusBytes, b.BusBytes), cmp.Compare(a.Comm, b.Comm), cmp.Compare(a.Rank, b.Rank))
	})
	if len(s) <= 2*topN {
		return s, 0
	}
	return append(s[:topN:topN], s[len(s)-topN:]...), len(s) - 2*topN
}

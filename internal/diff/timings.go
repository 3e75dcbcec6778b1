package diff

import (
	"slices"

	"github.com/nccllog/nccllog/stages/info"
)

// initTimings compares, per kind of init line (ncclCommInitRank, ncclCommSplit, ...), the
// median and slowest total over the ranks: per rank, so that a run of more ranks is not
// slower by their sum.
func initTimings(l *list, a, b *Side) {
	ta, tb := timingGroups(a.Info.Timings), timingGroups(b.Info.Timings)
	for _, k := range timingKeys(ta, tb) {
		ma, sa := medianMax(ta[k])
		mb, sb := medianMax(tb[k])
		switch {
		case len(ta[k]) == 0:
			l.text(k, Absent, "present")
		case len(tb[k]) == 0:
			l.text(k, "present", Absent)
		default:
			l.measure(k+" median per rank", ma, mb, " s")
			l.measure(k+" slowest rank", sa, sb, " s")
		}
	}
}

// timingGroups is the totals of each kind of timing line.
func timingGroups(rows []info.TimingRow) map[string][]float64 {
	out := map[string][]float64{}
	for _, t := range rows {
		k := t.What.String()
		if t.API != "" {
			k += " " + t.API
		}
		out[k] = append(out[k], t.TotalS)
	}
	return out
}

func timingKeys(a, b map[string][]float64) []string {
	var ks []string
	for k := range a {
		ks = append(ks, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// medianMax is the median and the largest of v (0, 0 when empty). It sorts v.
func medianMax(v []float64) (float64, float64) {
	if len(v) == 0 {
		return 0, 0
	}
	slices.Sort(v)
	return v[len(v)/2], v[len(v)-1]
}

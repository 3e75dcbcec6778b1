package diff

import (
	"slices"

	"github.com/nccllog/nccllog/stages/info"
)

// InitTiming is one kind of init line (ncclCommInitRank, ncclCommSplit, ...) over a run: how
// many totals the ranks printed, their median and the slowest, in seconds.
type InitTiming struct {
	Kind     string
	Lines    int
	MedianS  float64
	SlowestS float64
}

// InitTimings is each kind of init line of r, by kind: what diff compares and the two-run page
// draws.
func InitTimings(r *info.InfoReport) []InitTiming {
	groups := timingGroups(r.Timings)
	out := make([]InitTiming, 0, len(groups))
	for _, k := range unionKeys(groups, nil) {
		m, s := medianMax(groups[k])
		out = append(out, InitTiming{Kind: k, Lines: len(groups[k]), MedianS: m, SlowestS: s})
	}
	return out
}

// initTimings compares, per kind of init line, the median and slowest total over the ranks:
// per rank, so that a run of more ranks is not slower by their sum.
func initTimings(l *list, a, b *Side) {
	ta, tb := timingsByKind(a.Info), timingsByKind(b.Info)
	for _, k := range unionKeys(ta, tb) {
		x, inA := ta[k]
		y, inB := tb[k]
		switch {
		case !inA:
			l.text(k, Absent, "present")
		case !inB:
			l.text(k, "present", Absent)
		default:
			l.measure(k+" median per rank", x.MedianS, y.MedianS, " s")
			l.measure(k+" slowest rank", x.SlowestS, y.SlowestS, " s")
		}
	}
}

func timingsByKind(r *info.InfoReport) map[string]InitTiming {
	out := map[string]InitTiming{}
	for _, t := range InitTimings(r) {
		out[t.Kind] = t
	}
	return out
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

// medianMax is the median and the largest of v (0, 0 when empty). It sorts v.
func medianMax(v []float64) (float64, float64) {
	if len(v) == 0 {
		return 0, 0
	}
	slices.Sort(v)
	return v[len(v)/2], v[len(v)-1]
}

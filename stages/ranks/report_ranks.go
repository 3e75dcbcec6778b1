package ranks

import (
	"maps"
	"math"
	"slices"
	"strconv"
)

// RanksReport is ranks' answer: per communicator, its ranks' volumes. Its JSON is ranks'
// (fields in alphabetical order, as it has always listed them).
type RanksReport struct {
	Comms []RankComm `json:"comms"`
	// Overflow sums the communicators past the cap; left out where there are none.
	Overflow *OverflowReport `json:"overflow,omitempty"`
}

// RankComm is one communicator's ranks.
type RankComm struct {
	Comm     string       `json:"comm"`
	Grouping Grouping     `json:"grouping"`
	NRanks   int64        `json:"nranks"`
	Ranks    []RankReport `json:"ranks"`
	// GroupedBy says how its ranks were put together; Unattributed why some have no rank
	// number, "" where all have one.
	GroupedBy, Unattributed string `json:"-"`
}

// RankReport is one rank of a communicator.
type RankReport struct {
	Rank      *int64                  `json:"rank"`
	Host      string                  `json:"host"`
	Pid       int64                   `json:"pid"`
	File      string                  `json:"file"`
	Calls     int64                   `json:"calls"`
	Bytes     int64                   `json:"bytes"`
	BusBytes  float64                 `json:"bus_bytes"`
	ByOp      map[string]VolumeReport `json:"by_op"`
	FirstStep *int64                  `json:"first_step"`
	LastStep  *int64                  `json:"last_step"`
	End       string                  `json:"end"`
	BusNeed   *map[string]float64     `json:"busbw_needed_gbps"`
	RankFrom  string                  `json:"rank_from"`
	NoRank    string                  `json:"unattributed,omitempty"`
	// Label, Steps ("3-9") and TopOp (the op with the most bus bytes) are its table's cells;
	// NeedMax the bus bandwidth its steps need at most, in GB/s (0 where no step has a time).
	Label, Steps, TopOp string  `json:"-"`
	NeedMax             float64 `json:"-"`
}

// RanksReport is what ranks prints, from the merged ranks and the time of each step (the
// progress lines'; times that are not finite or not positive say nothing and are skipped).
func (r *Ranks) RanksReport(stepTimes map[int64]float64) RanksReport {
	r.settle()
	out := RanksReport{Comms: []RankComm{}, Overflow: r.OverflowReport()}
	for _, g := range r.Groups() {
		need := needOf(r.StepBus(g), stepTimes)
		var rs []RankReport // nil where it has no rank (written null)
		if len(g.Members) > 0 {
			// A communicator of thousands of ranks grew its rows by doubling, 30 MB of them
			// for the ranks of the 64 MiB init mix, at the end of the run.
			rs = make([]RankReport, 0, len(g.Members))
		}
		for _, m := range g.Members {
			rs = append(rs, rankReport(m, need))
		}
		out.Comms = append(out.Comms, RankComm{Comm: g.Label(), Grouping: g.Evidence, NRanks: g.NRanks, Ranks: rs,
			GroupedBy: groupedBy(g), Unattributed: unattributed(g)})
	}
	return out
}

// busNeed is the bus bandwidth (bytes/s) a rank would need to move each step's volume in
// that step's time: the largest over the steps and the mean.
type busNeed struct {
	Max, Mean float64
	Steps     int
}

// needOf sums over the steps in step order: a float sum in map order differs from run to
// run in its last bits. An inf or nan time (a progress line printed it) says nothing of the
// bandwidth a step needed.
func needOf(stepBus, times map[int64]float64) busNeed {
	var n busNeed
	var sum float64
	for _, s := range slices.Sorted(maps.Keys(stepBus)) {
		b, t := stepBus[s], times[s]
		if t <= 0 || math.IsInf(t, 0) || math.IsNaN(t) {
			continue
		}
		v := b / t
		n.Max = max(n.Max, v)
		sum += v
		n.Steps++
	}
	if n.Steps > 0 {
		n.Mean = sum / float64(n.Steps)
	}
	return n
}

func rankReport(m *Member, need busNeed) RankReport {
	v := m.Volume()
	out := RankReport{Rank: known(m.Rank), Host: m.Host, Pid: m.Pid, File: m.File, Calls: m.Calls,
		Bytes: v.Bytes, BusBytes: v.BusBytes, ByOp: map[string]VolumeReport{},
		FirstStep: known(m.FirstStep()), LastStep: known(m.LastStep()), End: m.End(),
		RankFrom: m.RankFrom(), NoRank: m.Unattributed(),
		Label: m.Label(), Steps: stepRange(m), TopOp: topOp(m), NeedMax: need.Max / 1e9}
	for op, o := range m.ByOp {
		out.ByOp[string(op)] = VolumeReport{o.Calls, o.Bytes, o.BusBytes}
	}
	if need.Steps > 0 {
		out.BusNeed = &map[string]float64{"max": need.Max / 1e9, "mean": need.Mean / 1e9}
	}
	return out
}

// Need is the table's "GB/s needed" cell: "" where no step has a time.
func (r *RankReport) Need() string {
	if r.BusNeed == nil {
		return ""
	}
	return strconv.FormatFloat(r.NeedMax, 'f', 2, 64)
}

func topOp(m *Member) string {
	if len(m.ByOp) == 0 {
		return "" // without sorting no op (most ranks of a log of communicator set-up)
	}
	best, bb := "", -1.0
	for _, op := range slices.Sorted(maps.Keys(m.ByOp)) {
		if v := m.ByOp[op].BusBytes; v > bb {
			best, bb = string(op), v
		}
	}
	return best
}

// unattributed is the reason some ranks of g have no rank number, or "".
func unattributed(g *Group) string {
	for _, m := range g.Members {
		if why := m.Unattributed(); why != "" {
			return why
		}
	}
	return ""
}

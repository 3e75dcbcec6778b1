package main

import (
	"maps"
	"math"
	"slices"

	"github.com/nccllog/nccllog/stages/ranks"
)

// busNeed is the bus bandwidth (bytes/s) a rank would need to move each step's volume in
// that step's time: the largest over the steps and the mean.
type busNeed struct {
	Max, Mean float64
	Steps     int
}

// needOf sums over the steps in step order: a float sum in map order differs from run to
// run in its last digits.
func needOf(stepBus, times map[int64]float64) busNeed {
	var n busNeed
	var sum float64
	// In step order: a float sum in map order differs from run to run in its last bits.
	for _, s := range slices.Sorted(maps.Keys(stepBus)) {
		b, t := stepBus[s], times[s]
		if t <= 0 {
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

// stepTimes is the time of every step that printed a finite one: an inf or nan time (a
// progress line printed it) says nothing of the bandwidth a step needed.
func stepTimes(r *view) map[int64]float64 {
	t := make(map[int64]float64)
	for _, p := range r.steps.Points() {
		if p.HasTime && !math.IsInf(p.TimeS, 0) && !math.IsNaN(p.TimeS) {
			t[p.Step] = p.TimeS
		}
	}
	return t
}

type volumeJSON struct {
	Calls    int64   `json:"calls"`
	Bytes    int64   `json:"bytes"`
	BusBytes float64 `json:"bus_bytes"`
}

type rankJSON struct {
	Rank      *int64                `json:"rank"`
	Host      string                `json:"host"`
	Pid       int64                 `json:"pid"`
	File      string                `json:"file"`
	Calls     int64                 `json:"calls"`
	Bytes     int64                 `json:"bytes"`
	BusBytes  float64               `json:"bus_bytes"`
	ByOp      map[string]volumeJSON `json:"by_op"`
	FirstStep *int64                `json:"first_step"`
	LastStep  *int64                `json:"last_step"`
	End       string                `json:"end"`
	BusNeed   *map[string]float64   `json:"busbw_needed_gbps"`
	RankFrom  string                `json:"rank_from"`
	NoRank    string                `json:"unattributed,omitempty"`
}

func rankValue(m *ranks.Member, need busNeed) rankJSON {
	v := m.Volume()
	out := rankJSON{Rank: known(m.Rank), Host: m.Host, Pid: m.Pid, File: m.File, Calls: m.Calls,
		Bytes: v.Bytes, BusBytes: v.BusBytes, ByOp: map[string]volumeJSON{},
		FirstStep: known(m.FirstStep), LastStep: known(m.LastStep), End: m.End,
		RankFrom: m.RankFrom, NoRank: m.Unattributed()}
	for op, o := range m.ByOp {
		out.ByOp[string(op)] = volumeJSON{o.Calls, o.Bytes, o.BusBytes}
	}
	if need.Steps > 0 {
		out.BusNeed = &map[string]float64{"max": need.Max / 1e9, "mean": need.Mean / 1e9}
	}
	return out
}

func known(v int64) *int64 {
	if v < 0 {
		return nil
	}
	return &v
}

func printRanks(w *output, r *view) error {
	groups := r.ranks.Groups()
	times := stepTimes(r)
	switch r.opts.format {
	case "json":
		out := ranksJSON{Comms: []rankCommJSON{}}
		for _, g := range groups {
			var ranks []rankJSON
			need := needOf(r.ranks.StepBus(g), times)
			for _, m := range g.Members {
				ranks = append(ranks, rankValue(m, need))
			}
			out.Comms = append(out.Comms, rankCommJSON{Comm: commLabel(g), Grouping: g.Evidence.String(), NRanks: g.NRanks, Ranks: ranks})
		}
		out.Overflow = overflowValue(r.ranks)
		return writeJSON(w, out)
	case "csv":
		var rows [][]string
		for _, g := range groups {
			n := needOf(r.ranks.StepBus(g), times)
			for _, m := range g.Members {
				v := m.Volume()
				rows = append(rows, []string{commLabel(g), optInt(known(m.Rank)), m.Host, itoa(m.Pid), m.File,
					itoa(m.Calls), itoa(v.Bytes), ftoa(v.BusBytes), optInt(known(m.FirstStep)),
					optInt(known(m.LastStep)), m.End, ftoa(n.Max / 1e9)})
			}
		}
		return writeCSV(w, []string{"comm", "rank", "host", "pid", "file", "calls", "bytes", "bus_bytes",
			"first_step", "last_step", "end", "busbw_needed_max_gbps"}, rows)
	}
	if noRanks(w, groups) {
		return nil
	}
	for _, g := range groups {
		w.printf("comm %s: %d ranks, %s\n", commLabel(g), g.NRanks, groupedBy(g))
		t := newTable(w, "rank", "host:pid", "calls", "bytes", "bus bytes", "steps", "GB/s needed", "end", "top op")
		n := needOf(r.ranks.StepBus(g), times)
		for _, m := range g.Members {
			v := m.Volume()
			need := ""
			if n.Steps > 0 {
				need = gbps(n.Max)
			}
			t.row(m.Label(), m.Host+":"+itoa(m.Pid), count(m.Calls), size(v.Bytes), sizeF(v.BusBytes),
				stepRange(m), need, m.End, topOp(m))
		}
		t.flush()
		if why := unattributed(g); why != "" {
			w.printf("  ranks shown as host:pid have no rank number: %s\n", why)
		}
		w.printf("\n")
	}
	w.printf("bus bytes: message bytes × the nccl-tests bus factor of each op (AllReduce 2(n-1)/n; AllGather,\n" +
		"ReduceScatter, AlltoAll (n-1)/n on count × n; others 1). GB/s needed: the largest over steps of\n" +
		"a step's bus bytes over its time; INFO lines carry no completion times, so this is a volume, not a measurement.\n")
	return nil
}

func topOp(m *ranks.Member) string {
	best, bb := "", -1.0
	for _, op := range slices.Sorted(maps.Keys(m.ByOp)) {
		if v := m.ByOp[op].BusBytes; v > bb {
			best, bb = string(op), v
		}
	}
	return best
}

func noRanks(w *output, groups []*ranks.Group) bool {
	if len(groups) > 0 {
		return false
	}
	w.printf("no collective calls or communicator lines: NCCL logs calls only when NCCL_DEBUG_SUBSYS includes COLL\n")
	return true
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// unattributed is the reason some ranks of g have no rank number, or "".
func unattributed(g *ranks.Group) string {
	for _, m := range g.Members {
		if why := m.Unattributed(); why != "" {
			return why
		}
	}
	return ""
}

// ranksJSON is ranks' JSON; fields in alphabetical order, as it has always listed them.
type ranksJSON struct {
	Comms []rankCommJSON `json:"comms"`
	// Overflow sums the communicators past the cap; left out where there are none.
	Overflow *overflowJSON `json:"overflow,omitempty"`
}

type rankCommJSON struct {
	Comm     string     `json:"comm"`
	Grouping string     `json:"grouping"`
	NRanks   int64      `json:"nranks"`
	Ranks    []rankJSON `json:"ranks"`
}

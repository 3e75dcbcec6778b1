package main

import (
	"slices"
	"strings"

	"github.com/nccllog/nccllog/stages/ranks"
)

// commTotals sums a communicator's ranks.
type commTotals struct {
	calls, maxCalls, bytes int64
	bus                    float64
	first, last            int64
	ops                    map[string]*ranks.Volume
}

func totalsOf(g *ranks.Group) commTotals {
	t := commTotals{first: -1, last: -1, ops: map[string]*ranks.Volume{}}
	for _, m := range g.Members {
		v := m.Volume()
		t.calls += m.Calls
		t.maxCalls = max(t.maxCalls, m.Calls)
		t.bytes += v.Bytes
		t.bus += v.BusBytes
		if m.FirstStep >= 0 && (t.first < 0 || m.FirstStep < t.first) {
			t.first = m.FirstStep
		}
		t.last = max(t.last, m.LastStep)
		for op, o := range m.ByOp {
			if t.ops[string(op)] == nil {
				t.ops[string(op)] = &ranks.Volume{}
			}
			t.ops[string(op)].Calls += o.Calls
			t.ops[string(op)].Bytes += o.Bytes
			t.ops[string(op)].BusBytes += o.BusBytes
		}
	}
	return t
}

func (t commTotals) opNames() string {
	ops := make([]string, 0, len(t.ops))
	for op := range t.ops {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	return strings.Join(ops, " ")
}

func printComms(w *output, r *view) error {
	groups := r.ranks.Groups()
	switch r.opts.format {
	case "json":
		out := commsJSON{Comms: []commJSON{}}
		for _, g := range groups {
			t := totalsOf(g)
			byOp := map[string]volumeJSON{}
			for op, v := range t.ops {
				byOp[op] = volumeJSON{v.Calls, v.Bytes, v.BusBytes}
			}
			out.Comms = append(out.Comms, commJSON{ByOp: byOp, BusBytes: t.bus, Bytes: t.bytes, Calls: t.calls,
				CallsPerRankMax: t.maxCalls, Comm: commLabel(g), FirstStep: known(t.first), Grouping: g.Evidence.String(),
				Inferred: g.Inferred(), LastStep: known(t.last), NRanks: g.NRanks, RanksSeen: len(g.Members)})
		}
		out.Overflow = overflowValue(r.ranks)
		return writeJSON(w, out)
	case "csv":
		var rows [][]string
		for _, g := range groups {
			t := totalsOf(g)
			rows = append(rows, []string{commLabel(g), itoa(g.NRanks), itoa(int64(len(g.Members))), g.Evidence.String(),
				itoa(t.calls), itoa(t.maxCalls), itoa(t.bytes), ftoa(t.bus), optInt(known(t.first)),
				optInt(known(t.last)), t.opNames()})
		}
		return writeCSV(w, []string{"comm", "nranks", "ranks_seen", "grouping", "calls", "calls_per_rank_max",
			"bytes", "bus_bytes", "first_step", "last_step", "ops"}, rows)
	}
	if noRanks(w, groups) {
		return nil
	}
	t := newTextTable(w, "comm", "nranks", "seen", "calls/rank", "bytes", "bus bytes", "steps", "grouping", "ops")
	for _, g := range groups {
		tt := totalsOf(g)
		steps := ""
		if tt.first >= 0 {
			steps = itoa(tt.first) + "-" + itoa(tt.last)
		}
		t.row(commLabel(g), itoa(g.NRanks), itoa(int64(len(g.Members))), count(tt.maxCalls), size(tt.bytes),
			sizeF(tt.bus), steps, g.Evidence.String(), tt.opNames())
	}
	overflowRow(t, r.ranks)
	t.flush()
	return nil
}

// commsJSON is comms' JSON; fields in alphabetical order, as it has always listed them.
type commsJSON struct {
	Comms []commJSON `json:"comms"`
	// Overflow sums the communicators past the cap; left out where there are none.
	Overflow *overflowJSON `json:"overflow,omitempty"`
}

type commJSON struct {
	BusBytes        float64               `json:"bus_bytes"`
	ByOp            map[string]volumeJSON `json:"by_op"`
	Bytes           int64                 `json:"bytes"`
	Calls           int64                 `json:"calls"`
	CallsPerRankMax int64                 `json:"calls_per_rank_max"`
	Comm            string                `json:"comm"`
	FirstStep       *int64                `json:"first_step"`
	Grouping        string                `json:"grouping"`
	Inferred        bool                  `json:"inferred"`
	LastStep        *int64                `json:"last_step"`
	NRanks          int64                 `json:"nranks"`
	RanksSeen       int                   `json:"ranks_seen"`
}

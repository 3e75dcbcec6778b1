package ranks

import (
	"slices"
	"strings"
)

// CommsReport is comms' answer: per communicator, its ranks summed. Its JSON is comms'
// (fields in alphabetical order, as it has always listed them).
type CommsReport struct {
	Comms []CommReport `json:"comms"`
	// Overflow sums the communicators past the cap; left out where there are none.
	Overflow *OverflowReport `json:"overflow,omitempty"`
}

// CommReport is one communicator, its ranks summed.
type CommReport struct {
	BusBytes        float64                 `json:"bus_bytes"`
	ByOp            map[string]VolumeReport `json:"by_op"`
	Bytes           int64                   `json:"bytes"`
	Calls           int64                   `json:"calls"`
	CallsPerRankMax int64                   `json:"calls_per_rank_max"`
	Comm            string                  `json:"comm"`
	FirstStep       *int64                  `json:"first_step"`
	Grouping        Grouping                `json:"grouping"`
	Inferred        bool                    `json:"inferred"`
	LastStep        *int64                  `json:"last_step"`
	NRanks          int64                   `json:"nranks"`
	RanksSeen       int                     `json:"ranks_seen"`
	// Steps ("3-9", "" where none is known) and Ops (sorted, space-separated) are table cells.
	Steps, Ops string `json:"-"`
}

// CommsReport is what comms prints, from the merged ranks.
func (r *Ranks) CommsReport() CommsReport {
	r.settle()
	out := CommsReport{Comms: []CommReport{}, Overflow: r.OverflowReport()}
	for _, g := range r.Groups() {
		out.Comms = append(out.Comms, commReport(g))
	}
	return out
}

func commReport(g *Group) CommReport {
	c := CommReport{ByOp: map[string]VolumeReport{}, Comm: g.Label(), Grouping: g.Evidence, Inferred: g.Inferred(),
		NRanks: g.NRanks, RanksSeen: len(g.Members)}
	first, last := int64(-1), int64(-1)
	for _, m := range g.Members {
		v := m.Volume()
		c.Calls += m.Calls
		c.CallsPerRankMax = max(c.CallsPerRankMax, m.Calls)
		c.Bytes += v.Bytes
		c.BusBytes += v.BusBytes
		if f := m.FirstStep(); f >= 0 && (first < 0 || f < first) {
			first = f
		}
		last = max(last, m.LastStep())
		for op, o := range m.ByOp {
			t := c.ByOp[string(op)]
			t.Calls += o.Calls
			t.Bytes += o.Bytes
			t.BusBytes += o.BusBytes
			c.ByOp[string(op)] = t
		}
	}
	c.FirstStep, c.LastStep = known(first), known(last)
	if first >= 0 {
		c.Steps = itoa(first) + "-" + itoa(last)
	}
	ops := make([]string, 0, len(c.ByOp))
	for op := range c.ByOp {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	c.Ops = strings.Join(ops, " ")
	return c
}

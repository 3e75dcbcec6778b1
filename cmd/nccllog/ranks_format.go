package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/ranks"
)

// commLabel names a communicator: its commId, a split's derived id, or its inferred place.
func commLabel(g *ranks.Group) string {
	switch g.Evidence {
	case ranks.GroupedCommID:
		return fmt.Sprintf("0x%016x", g.Key.CommID)
	case ranks.GroupedSplit:
		return fmt.Sprintf("split-%08x", g.Key.CommID>>32)
	}
	return fmt.Sprintf("size%d#%d", g.Key.NRanks, g.Key.Seq)
}

// groupedBy says how the ranks of a communicator were put together.
func groupedBy(g *ranks.Group) string {
	switch g.Evidence {
	case ranks.GroupedCommID:
		return "grouped by commId"
	case ranks.GroupedSplit:
		return "grouped by parent communicator and split color"
	}
	return "grouping inferred: no Init line with a commId; ranks matched by communicator size and order of first use"
}

// rankList prints members compactly: 0-6,8 (processes without a known rank as host:pid).
func rankList(ms []*ranks.Member) string {
	var ranks []int64
	var others []string
	for _, m := range ms {
		if m.Rank >= 0 {
			ranks = append(ranks, m.Rank)
		} else {
			others = append(others, m.Label())
		}
	}
	slices.Sort(ranks)
	parts := others
	if len(ranks) > 0 {
		parts = append([]string{intList(ranks)}, others...)
	}
	return strings.Join(parts, ",")
}

func dtypeName(d parser.Datatype) string {
	if n := d.Name(); n != "" {
		return n
	}
	return "datatype" + itoa(int64(d))
}

// sigText prints a call as the ranks must agree on it.
func sigText(s ranks.Sig) string {
	t := fmt.Sprintf("%s count %d %s", s.Op, s.Count, dtypeName(s.Datatype))
	if s.Op.Reduces() {
		t += " " + s.RedOp.String()
	}
	switch {
	case s.Op.Rooted():
		t += " root " + itoa(s.Root)
	case (s.Op == parser.OpSend || s.Op == parser.OpRecv) && s.Root >= 0:
		t += " peer " + itoa(s.Root)
	}
	return t
}

type sigJSON struct {
	Op    string `json:"op"`
	Count int64  `json:"count"`
	Dtype string `json:"dtype"`
	RedOp string `json:"redop"`
	Root  int64  `json:"root"`
}

func sigValue(s ranks.Sig) sigJSON {
	return sigJSON{string(s.Op), s.Count, dtypeName(s.Datatype), s.RedOp.String(), s.Root}
}

func stepRange(m *ranks.Member) string {
	if m.FirstStep < 0 {
		return ""
	}
	if m.FirstStep == m.LastStep {
		return itoa(m.FirstStep)
	}
	return itoa(m.FirstStep) + "-" + itoa(m.LastStep)
}

func gbps(v float64) string { return strconv.FormatFloat(v/1e9, 'f', 2, 64) }

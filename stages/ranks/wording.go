package ranks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// The family's wording of its parts: communicators, ranks, calls and coverage.

// Label names a communicator: its commId, a split's derived id, or its inferred place.
func (g *Group) Label() string {
	switch g.Evidence {
	case GroupedCommID:
		return fmt.Sprintf("0x%016x", g.Key.CommID)
	case GroupedSplit:
		return fmt.Sprintf("split-%08x", g.Key.CommID>>32)
	}
	return fmt.Sprintf("size%d#%d", g.Key.NRanks, g.Key.Seq)
}

// groupedBy says how the ranks of a communicator were put together.
func groupedBy(g *Group) string {
	switch g.Evidence {
	case GroupedCommID:
		return "grouped by commId"
	case GroupedSplit:
		return "grouped by parent communicator and split color"
	}
	return "grouping inferred: no Init line with a commId; ranks matched by communicator size and order of first use"
}

// rankList prints members compactly: 0-6,8 (processes without a known rank as host:pid).
func rankList(ms []*Member) string {
	var rs []int64
	var others []string
	for _, m := range ms {
		if m.Rank >= 0 {
			rs = append(rs, m.Rank)
		} else {
			others = append(others, m.Label())
		}
	}
	slices.Sort(rs)
	parts := others
	if len(rs) > 0 {
		parts = append([]string{intList(rs)}, others...)
	}
	return strings.Join(parts, ",")
}

// ranksWord is "rank 5" or "ranks 0-4,6-7".
func ranksWord(ms []*Member) string {
	if len(ms) == 1 {
		return "rank " + rankList(ms)
	}
	return "ranks " + rankList(ms)
}

// ranksText is "rank 3" or "ranks 0-7".
func ranksText(v []int64) string {
	if len(v) == 1 {
		return "rank " + intList(v)
	}
	return "ranks " + intList(v)
}

func dtypeName(d parser.Datatype) string {
	if n := d.Name(); n != "" {
		return n
	}
	return "datatype" + itoa(int64(d))
}

// sigText prints a call as the ranks must agree on it.
func sigText(s Sig) string {
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

func stepRange(m *Member) string {
	first, last := m.FirstStep(), m.LastStep()
	if first < 0 {
		return ""
	}
	if first == last {
		return itoa(first)
	}
	return itoa(first) + "-" + itoa(last)
}

// differText is "count differs" or "count and datatype differ" for a finding's fields.
func differText(what string) string {
	fields := strings.Split(what, ",")
	if len(fields) == 1 {
		return what + " differs"
	}
	return strings.Join(fields[:len(fields)-1], ", ") + " and " + fields[len(fields)-1] + " differ"
}

// hasHave is "1 rank has" or "3 ranks have".
func hasHave(n int64) string {
	if n == 1 {
		return "1 rank has"
	}
	return count(n) + " ranks have"
}

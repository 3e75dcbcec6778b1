package ranks

import (
	"fmt"
	"strings"
)

// CoverageReport is how much of a communicator the input holds, printed before any verdict.
type CoverageReport struct {
	NRanks       int64    `json:"nranks"`
	RanksPresent int64    `json:"ranks_present"`
	RanksAbsent  int64    `json:"ranks_absent"`
	Absent       []int64  `json:"absent_ranks"`
	Nodes        *int64   `json:"nodes"`
	NodesPresent *int64   `json:"nodes_present"`
	FirstCall    *int64   `json:"first_call"`
	LastCall     *int64   `json:"last_call"`
	FirstStep    *int64   `json:"first_step"`
	LastStep     *int64   `json:"last_step"`
	Excerpt      bool     `json:"excerpt"`
	StartsDiffer bool     `json:"starts_differ"`
	EndsDiffer   bool     `json:"ends_differ"`
	EndsCut      bool     `json:"ends_cut"`
	CutFrom      *int64   `json:"cut_from"`
	CutWhy       CutWhy   `json:"cut_why,omitempty"`
	SomeNodes    bool     `json:"some_nodes_only"`
	Conflict     string   `json:"conflict,omitempty"`
	Notes        []string `json:"notes"`
	// Line says in one line what the input holds of the communicator (the text the notes go under).
	Line string `json:"-"`
}

func coverageReport(c Coverage, g *Group) CoverageReport {
	v := CoverageReport{NRanks: c.NRanks, RanksPresent: c.Present, RanksAbsent: c.AbsentN, Absent: orEmpty(c.Absent),
		FirstCall: known(c.First), LastCall: known(c.Last), FirstStep: known(c.FirstStep), LastStep: known(c.LastStep),
		Excerpt: c.Excerpt, StartsDiffer: c.StartsDiffer, EndsDiffer: c.EndsDiffer, EndsCut: c.EndsCut, CutFrom: known(c.CutFrom), CutWhy: c.CutWhy, SomeNodes: c.SomeNodes(),
		Conflict: c.Conflict, Notes: orEmpty(coverageNotes(c, g)), Line: coverageLine(c, g)}
	if c.Nodes > 0 {
		v.Nodes, v.NodesPresent = &c.Nodes, &c.NodesSeen
	}
	return v
}

// coverageLine says in one line what the input holds of a communicator.
func coverageLine(c Coverage, g *Group) string {
	t := fmt.Sprintf("comm %s: %s, %d with lines", g.Label(), plural(c.NRanks, "rank"), c.Present)
	if c.Nodes > 1 {
		t += fmt.Sprintf(" on %d of %d nodes", c.NodesSeen, c.Nodes)
	}
	switch {
	case c.First < 0:
		t += "; no call"
	case c.First == c.Last:
		t += fmt.Sprintf("; call %d seen%s", c.First, stepsText(c))
	default:
		t += fmt.Sprintf("; calls %d-%d seen%s", c.First, c.Last, stepsText(c))
	}
	return t
}

func stepsText(c Coverage) string {
	switch {
	case c.FirstStep < 0 && c.LastStep < 0:
		return ""
	case c.FirstStep == c.LastStep || c.FirstStep < 0 || c.LastStep < 0:
		return " (step " + itoa(max(c.FirstStep, c.LastStep)) + ")"
	}
	return fmt.Sprintf(" (steps %d-%d)", c.FirstStep, c.LastStep)
}

// coverageNotes say what limits a verdict on the communicator: a log of some nodes only, an
// excerpt, ranks that cannot be one communicator.
func coverageNotes(c Coverage, g *Group) []string {
	var out []string
	if c.Conflict != "" {
		out = append(out, "these cannot be the ranks of one communicator: "+c.Conflict+"; no verdict for it")
	}
	if c.Truncated {
		out = append(out, "some of its ranks came in an input past the cap of communicators kept in detail, counted in totals only; no verdict for it")
	}
	if c.SomeNodes() {
		t := fmt.Sprintf("this log covers %d of %d nodes", c.NodesSeen, c.Nodes)
		if len(c.NodeRanks) > 0 {
			t += " (" + ranksText(c.NodeRanks) + ")"
		}
		out = append(out, t+"; the other nodes' ranks are not judged")
	}
	if c.StartsDiffer {
		out = append(out, "the excerpt's ranks start at different calls ("+edges(g, true)+"); calls before a rank's first line are not compared")
	}
	if c.CutFrom >= 0 {
		out = append(out, cutNote(c, g))
	}
	return out
}

// cutNote says which ranks stop where the input ends, and why that is no sign of a hang.
func cutNote(c Coverage, g *Group) string {
	why := map[CutWhy]string{
		CutExcerpt:  "as an excerpt cuts them",
		CutInFlight: "a few calls apart, as a log that ends while the job issues calls stops them (the job still running, stopped by a time limit, or the log cut)",
		CutProcs:    "as the log ends while their processes issue calls on another communicator, a few calls apart (the job still running, stopped by a time limit, or the log cut)",
	}[c.CutWhy]
	if c.EndsCut {
		return "the ranks' lines stop at different calls (" + edges(g, false) + "), " + why + "; that alone is no sign of a hang"
	}
	var cut []*Member
	for _, m := range g.Members {
		if c.Cut(m) {
			cut = append(cut, m)
		}
	}
	return fmt.Sprintf("%s stop at calls %d-%d, %s; that alone is no sign of a hang, but the ranks far behind them are judged",
		ranksWord(cut), c.CutFrom-1, g.MaxCalls()-1, why)
}

// edges lists where each rank's lines start (or stop), grouped by call.
func edges(g *Group, start bool) string {
	var order []int64
	by := map[int64][]*Member{}
	for _, m := range g.Members {
		if m.Calls == 0 {
			continue
		}
		k := m.Through() - 1
		if start {
			k = m.Start
		}
		if by[k] == nil {
			order = append(order, k)
		}
		by[k] = append(by[k], m)
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, ranksWord(by[k])+" at call "+itoa(k))
	}
	return strings.Join(parts, ", ")
}

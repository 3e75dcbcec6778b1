package ranks

import "fmt"

// CheckReport is check's answer: every communicator's coverage and the disagreements found.
// Its JSON is check's (the README's schema): fields in alphabetical order, as it has always
// listed them.
type CheckReport struct {
	Comms    int             `json:"comms"`
	Coverage []CommCoverage  `json:"coverage"`
	Findings []FindingReport `json:"findings"`
	// Overflow sums the communicators past the cap, not compared; left out where there are none.
	Overflow *OverflowReport `json:"overflow,omitempty"`
	// Compared, ComparedRanks, Refused and Truncated count the communicators compared (and
	// their ranks), and those not compared: not one communicator, or some ranks in totals only.
	Compared, ComparedRanks, Refused, Truncated int64 `json:"-"`
}

// CommCoverage is one communicator's coverage in check's JSON.
type CommCoverage struct {
	Comm string `json:"comm"`
	CoverageReport
}

// FindingReport is one disagreement.
type FindingReport struct {
	Call      int64         `json:"call"`
	Comm      string        `json:"comm"`
	DiffersIn string        `json:"differs_in"`
	Kind      FindingKind   `json:"kind"`
	NRanks    int64         `json:"nranks"`
	Short     []ShortReport `json:"short"`
	Sides     []SideReport  `json:"sides"`
	Step      *int64        `json:"step"`
	// Head is its first line in check's text (and the HTML page's); Lines the lines under it,
	// each a label (padded by the printer) and a text.
	Head  string      `json:"-"`
	Lines [][2]string `json:"-"`
}

// SideReport is one way the ranks issued the call.
type SideReport struct {
	Call  SigReport `json:"call"`
	Ranks string    `json:"ranks"`
	N     int       `json:"n"`
}

// ShortReport is a rank that issued fewer calls than the finding's position.
type ShortReport struct {
	Calls int64  `json:"calls"`
	Rank  string `json:"rank"`
}

// CheckReport is what check prints, from the merged ranks.
func (r *Ranks) CheckReport() CheckReport {
	r.settle()
	out := CheckReport{Comms: len(r.Groups()), Coverage: []CommCoverage{}, Findings: []FindingReport{},
		Overflow: r.OverflowReport()}
	for _, g := range r.Groups() {
		c := r.Cover(g)
		out.Coverage = append(out.Coverage, CommCoverage{g.Label(), coverageReport(c, g)})
		switch {
		case c.Conflict != "":
			out.Refused++
		case c.Truncated:
			out.Truncated++
		default:
			out.Compared++
			out.ComparedRanks += int64(len(g.Members))
		}
	}
	for _, f := range r.Check() {
		out.Findings = append(out.Findings, findingReport(f))
	}
	return out
}

func findingReport(f CheckFinding) FindingReport {
	v := FindingReport{Call: f.Index, Comm: f.Group.Label(), DiffersIn: f.What, Kind: f.Kind,
		NRanks: f.Group.NRanks, Short: []ShortReport{}, Sides: []SideReport{}, Step: known(f.Step)}
	for _, s := range f.Sides {
		v.Sides = append(v.Sides, SideReport{sigReport(s.Sig), rankList(s.Members), len(s.Members)})
	}
	for _, m := range f.Short {
		v.Short = append(v.Short, ShortReport{Calls: m.Calls, Rank: m.Label()})
	}
	g := f.Group
	switch f.Kind {
	case KindMismatch:
		v.Head = fmt.Sprintf("comm %s (%d ranks): call %d%s: %s", g.Label(), g.NRanks, f.Index, withStep(f.Step), differText(f.What))
		for _, s := range f.Sides {
			v.Lines = append(v.Lines, [2]string{ranksWord(s.Members), sigText(s.Sig)})
		}
		if len(f.Short) > 0 {
			v.Lines = append(v.Lines, [2]string{ranksWord(f.Short), "never got to this call"})
		}
	case KindLength:
		v.Head = fmt.Sprintf("comm %s (%d ranks): sequences of different lengths: the longest has %s calls", g.Label(), g.NRanks, count(f.Index))
		for _, m := range f.Short {
			v.Lines = append(v.Lines, [2]string{"rank " + m.Label(), count(m.Calls) + " calls"})
		}
	default:
		v.Head = fmt.Sprintf("comm %s (%d ranks): call %d: %s", g.Label(), g.NRanks, f.Index, f.Kind)
	}
	return v
}

// NoDisagreement says how many communicators and ranks were compared and found to agree (in
// steps, where a range of steps was chosen), and how many could not be compared.
func (c *CheckReport) NoDisagreement(steps string) []string {
	in := ""
	if steps != "" {
		in = " in steps " + steps
	}
	var out []string
	if c.Compared > 0 {
		out = append(out, fmt.Sprintf("no disagreement%s: %s, %s compared call by call (op, count, datatype, reduction op, root).",
			in, plural(c.Compared, "communicator"), plural(c.ComparedRanks, "rank")))
	}
	if c.Refused > 0 {
		out = append(out, fmt.Sprintf("%s not compared: not the ranks of one communicator (see above).", plural(c.Refused, "communicator")))
	}
	if c.Truncated > 0 {
		out = append(out, fmt.Sprintf("%s not compared: some of their ranks are counted in totals only (see above).", plural(c.Truncated, "communicator")))
	}
	return out
}

package main

import (
	"strings"

	"github.com/nccllog/nccllog/stages/ranks"
)

type sideJSON struct {
	Call  sigJSON `json:"call"`
	Ranks string  `json:"ranks"`
	N     int     `json:"n"`
}

func printCheck(w *output, r *view) error {
	findings := r.ranks.Check()
	found := len(findings) > 0
	switch r.opts.format {
	case "csv":
		return checkCSV(w, findings)
	case "json":
		out := checkOut{Comms: len(r.ranks.Groups()), Coverage: coverages(r.ranks), Findings: []findingJSON{},
			Overflow: overflowValue(r.ranks)}
		for _, f := range findings {
			v := findingJSON{Call: f.Index, Comm: commLabel(f.Group), DiffersIn: f.What, Kind: f.Kind.String(),
				NRanks: f.Group.NRanks, Short: []shortJSON{}, Sides: []sideJSON{}, Step: known(f.Step)}
			for _, s := range f.Sides {
				v.Sides = append(v.Sides, sideJSON{sigValue(s.Sig), rankList(s.Members), len(s.Members)})
			}
			for _, m := range f.Short {
				v.Short = append(v.Short, shortJSON{Calls: m.Calls, Rank: m.Label()})
			}
			out.Findings = append(out.Findings, v)
		}
		return writeJSON(w, out)
	}
	groups := r.ranks.Groups()
	if noRanks(w, groups) {
		return nil
	}
	for _, g := range groups {
		c := r.ranks.Cover(g)
		w.printf("%s\n", coverageLine(c, g))
		for _, n := range coverageNotes(c, g) {
			w.printf("  note: %s\n", n)
		}
	}
	w.printf("\n")
	for _, f := range findings {
		printFinding(w, f)
	}
	if !found {
		printNoDisagreement(w, r, groups)
	}
	return nil
}

func printFinding(w *output, f ranks.CheckFinding) {
	g := f.Group
	switch f.Kind {
	case ranks.KindMismatch:
		w.printf("comm %s (%d ranks): call %d%s: %s\n", commLabel(g), g.NRanks, f.Index, withStep(f.Step), differText(f.What))
		for _, s := range f.Sides {
			w.printf("  %-18s %s\n", ranksWord(s.Members), sigText(s.Sig))
		}
		if len(f.Short) > 0 {
			w.printf("  %-18s never got to this call\n", ranksWord(f.Short))
		}
	case ranks.KindLength:
		w.printf("comm %s (%d ranks): sequences of different lengths: the longest has %s calls\n", commLabel(g), g.NRanks, count(f.Index))
		for _, m := range f.Short {
			w.printf("  rank %-13s %s calls\n", m.Label(), count(m.Calls))
		}
	}
	w.printf("\n")
}

// checkCSV writes one row per side of a mismatch and per short rank.
func checkCSV(w *output, findings []ranks.CheckFinding) error {
	var rows [][]string
	for _, f := range findings {
		head := []string{commLabel(f.Group), itoa(f.Group.NRanks), f.Kind.String(), f.What, itoa(f.Index), optInt(known(f.Step))}
		for _, s := range f.Sides {
			v := sigValue(s.Sig)
			rows = append(rows, append(append([]string{}, head...), rankList(s.Members), "", v.Op, itoa(v.Count), v.Dtype, v.RedOp, itoa(v.Root)))
		}
		for _, m := range f.Short {
			rows = append(rows, append(append([]string{}, head...), m.Label(), itoa(m.Calls), "", "", "", "", ""))
		}
	}
	return writeCSV(w, []string{"comm", "nranks", "kind", "differs_in", "call", "step", "ranks", "calls",
		"op", "count", "dtype", "redop", "root"}, rows)
}

// ranksWord is "rank 5" or "ranks 0-4,6-7".
func ranksWord(ms []*ranks.Member) string {
	if len(ms) == 1 {
		return "rank " + rankList(ms)
	}
	return "ranks " + rankList(ms)
}

// differText is "count differs" or "count and datatype differ" for a finding's fields.
func differText(what string) string {
	fields := strings.Split(what, ",")
	if len(fields) == 1 {
		return what + " differs"
	}
	return strings.Join(fields[:len(fields)-1], ", ") + " and " + fields[len(fields)-1] + " differ"
}

// commCoverage is one communicator's coverage in check's JSON.
type commCoverage struct {
	Comm string `json:"comm"`
	coverageJSON
}

func coverages(r *ranks.Ranks) []commCoverage {
	out := []commCoverage{}
	for _, g := range r.Groups() {
		out = append(out, commCoverage{commLabel(g), coverageValue(r.Cover(g), g)})
	}
	return out
}

// printNoDisagreement says how many communicators and ranks were compared and found to agree,
// and how many could not be compared.
func printNoDisagreement(w *output, r *view, groups []*ranks.Group) {
	var comms, ranks, refused, truncated int64
	for _, g := range groups {
		c := r.ranks.Cover(g)
		switch {
		case c.Conflict != "":
			refused++
			continue
		case c.Truncated:
			truncated++
			continue
		}
		comms++
		ranks += int64(len(g.Members))
	}
	in := ""
	if r.opts.steps != "" {
		in = " in steps " + r.opts.steps
	}
	if comms > 0 {
		w.printf("no disagreement%s: %s, %s compared call by call (op, count, datatype, reduction op, root).\n",
			in, plural(comms, "communicator"), plural(ranks, "rank"))
	}
	if refused > 0 {
		w.printf("%s not compared: not the ranks of one communicator (see above).\n", plural(refused, "communicator"))
	}
	if truncated > 0 {
		w.printf("%s not compared: some of their ranks are counted in totals only (see above).\n", plural(truncated, "communicator"))
	}
}

// checkFound: the ranks of some communicator disagree.
func checkFound(v *view) bool { return len(v.ranks.Check()) > 0 }

// checkOut is check's JSON; fields in alphabetical order, as it has always listed them.
type checkOut struct {
	Comms    int            `json:"comms"`
	Coverage []commCoverage `json:"coverage"`
	Findings []findingJSON  `json:"findings"`
	// Overflow sums the communicators past the cap, not compared; left out where there are none.
	Overflow *overflowJSON `json:"overflow,omitempty"`
}

type findingJSON struct {
	Call      int64       `json:"call"`
	Comm      string      `json:"comm"`
	DiffersIn string      `json:"differs_in"`
	Kind      string      `json:"kind"`
	NRanks    int64       `json:"nranks"`
	Short     []shortJSON `json:"short"`
	Sides     []sideJSON  `json:"sides"`
	Step      *int64      `json:"step"`
}

// shortJSON is a rank that issued fewer calls than the finding's position.
type shortJSON struct {
	Calls int64  `json:"calls"`
	Rank  string `json:"rank"`
}

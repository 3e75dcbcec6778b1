package main

import "github.com/nccllog/nccllog/stages/ranks"

func printCheck(w *output, r *view) error {
	c := r.checkReport()
	switch r.opts.format {
	case "csv":
		return checkCSV(w, c.Findings)
	case "json":
		return writeJSON(w, c)
	}
	if noRanks(w, r.ranks.Groups()) {
		w.printf("%s\n", diagnoseHint)
		return nil
	}
	for _, cc := range c.Coverage {
		w.printf("%s\n", cc.Line)
		for _, n := range cc.Notes {
			w.printf("  note: %s\n", n)
		}
	}
	w.printf("\n")
	for _, f := range c.Findings {
		w.printf("%s\n", f.Head)
		for _, l := range f.Lines {
			w.printf("  %-18s %s\n", l[0], l[1])
		}
		w.printf("\n")
	}
	if len(c.Findings) == 0 {
		for _, l := range c.NoDisagreement(r.opts.steps) {
			w.printf("%s\n", l)
		}
	}
	return nil
}

// checkCSV writes one row per side of a mismatch and per short rank.
func checkCSV(w *output, findings []ranks.FindingReport) error {
	var rows [][]string
	for _, f := range findings {
		head := []string{f.Comm, itoa(f.NRanks), f.Kind.String(), f.DiffersIn, itoa(f.Call), optInt(f.Step)}
		for _, s := range f.Sides {
			v := s.Call
			rows = append(rows, append(append([]string{}, head...), s.Ranks, "", v.Op, itoa(v.Count), v.Dtype, v.RedOp, itoa(v.Root)))
		}
		for _, m := range f.Short {
			rows = append(rows, append(append([]string{}, head...), m.Rank, itoa(m.Calls), "", "", "", "", ""))
		}
	}
	return writeCSV(w, []string{"comm", "nranks", "kind", "differs_in", "call", "step", "ranks", "calls",
		"op", "count", "dtype", "redop", "root"}, rows)
}

// checkFound: the ranks of some communicator disagree.
func checkFound(v *view) bool { return len(v.checkReport().Findings) > 0 }

// checkReport is the run's check report, built on first use: printing and the exit status
// read the same one, as hang's and diagnose's do.
func (v *view) checkReport() *ranks.CheckReport {
	if v.check == nil {
		c := v.ranks.CheckReport()
		v.check = &c
	}
	return v.check
}

package main

import (
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages/strag"
)

// printStragglers lays out the stragglers family's Report.
func printStragglers(w *output, v *view) error {
	rep := strag.Report(v.res.Set)
	if v.opts.format == "json" {
		return writeJSON(w, rep)
	}
	if len(rep.Stragglers) == 0 {
		w.printf("no straggler: no rank's calls stand out (%d call positions compared)\n", rep.Compared)
	} else {
		printStragglerRows(w, rep.Stragglers)
	}
	if rep.Note != "" {
		w.printf("note: %s\n", rep.Note)
	}
	return nil
}

func printStragglerRows(w *output, ss []strag.Straggler) {
	t := newTable(w, "rank", "host", "pid", "comm", "kind", "last", "median lag (ms)", "p95 lag (ms)", "late steps")
	for _, s := range ss {
		t.row(itoa(s.Rank), s.Host, itoa(s.Pid), s.Comm, s.Kind.String(), strconv.FormatFloat(s.LastShare, 'f', 3, 64),
			strconv.FormatFloat(s.MedianLagMs, 'f', 3, 64), strconv.FormatFloat(s.P95LagMs, 'f', 3, 64),
			itoa(int64(s.LateSteps))+" of "+itoa(int64(s.TimedSteps)))
	}
	t.flush()
	for _, s := range ss {
		w.printf("rank %d late on steps %s\n", s.Rank, lateSteps(s))
	}
}

// lateSteps is "s1 (lag ms), s2 (lag ms), ..." for a straggler's late steps, the first 5.
func lateSteps(s strag.Straggler) string {
	parts := make([]string, 0, len(s.Steps))
	for _, l := range s.Steps[:min(len(s.Steps), 5)] {
		parts = append(parts, itoa(l.Step)+" ("+strconv.FormatFloat(l.LagMs, 'f', 1, 64)+" ms)")
	}
	if s.LateSteps > len(parts) {
		parts = append(parts, "...")
	}
	return strings.Join(parts, ", ")
}

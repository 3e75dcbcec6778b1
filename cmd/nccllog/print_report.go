package main

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/steps"
)

func printReport(w *output, r *view) error {
	if r.opts.format == "json" {
		return writeJSON(w, reportValue(r))
	}
	for _, f := range r.res.Inputs {
		w.printf("%s: %s lines\n", f.Name, count(f.Lines.Total))
		printLineClasses(w, &f.Lines)
	}
	section(w, "per-op message sizes")
	printStats(w, r)
	section(w, "message-size histogram")
	printHist(w, r)
	section(w, "calls per (op, count, datatype)")
	printAgg(w, r)
	section(w, "steps")
	printSteps(w, r)
	return nil
}

// reportJSON is report's JSON, each family's Report under its name; fields in alphabetical
// order, as it has always listed them.
type reportJSON struct {
	Agg      agg.Report             `json:"agg"`
	Hist     agg.HistReport         `json:"hist"`
	Inputs   []stages.InputReport   `json:"inputs"`
	Lines    stages.LinesReport     `json:"lines"`
	Parse    stages.ParseReport     `json:"parse"`
	Problems []stages.ProblemReport `json:"problems"`
	Stats    agg.StatsReport        `json:"stats"`
	Steps    steps.Report           `json:"steps"`
}

func reportValue(r *view) reportJSON {
	return reportJSON{Agg: r.agg.Report(), Hist: r.agg.HistReport(), Inputs: r.res.InputsReport(),
		Lines: r.lines.Report(), Parse: r.res.ParseReport(), Problems: r.lines.ProblemsReport(),
		Stats: r.agg.StatsReport(), Steps: r.steps.Report()}
}

func section(w *output, title string) { w.printf("\n== %s ==\n", title) }

// lineClassOrder is how the line classes are listed.
var lineClassOrder = []parser.Kind{parser.KindCollective, parser.KindComm, parser.KindProgress,
	parser.KindInfo, parser.KindWarn, parser.KindTrace, parser.KindVersion, parser.KindWatchdog,
	parser.KindFailure, parser.KindBlank, parser.KindOther, parser.KindMalformed}

func printLineClasses(w *output, l *stages.Lines) {
	t := newTable(w, "  class", "lines")
	for _, k := range lineClassOrder {
		if n := l.ByKind[k]; n > 0 || k == parser.KindMalformed {
			t.row("  "+k.String(), count(n))
		}
	}
	if l.Unread > 0 {
		t.row("  unread (outside --steps)", count(l.Unread))
	}
	if l.Spliced > 0 {
		t.row("  (spliced)", count(l.Spliced))
	}
	if l.UnknownKey > 0 {
		t.row("  (unknown key)", count(l.UnknownKey))
	}
	t.flush()
}

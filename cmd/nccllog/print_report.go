package main

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// linesValue is the accounting of every line of an input, for JSON.
func linesValue(l *stages.Lines) map[string]any {
	m := map[string]any{"total": l.Total, "spliced": l.Spliced, "unread": l.Unread}
	for k := 0; k < parser.NumKinds; k++ {
		m[parser.Kind(k).String()] = l.ByKind[k]
	}
	return m
}

type problemJSON struct {
	File    string `json:"file"`
	Line    int64  `json:"line"`
	Reason  string `json:"reason"`
	Excerpt string `json:"excerpt"`
}

func problemsValue(l *stages.Lines) []problemJSON {
	out := []problemJSON{}
	for _, p := range l.Problems {
		out = append(out, problemJSON{p.File, p.Line, p.Reason, p.Excerpt})
	}
	return out
}

func printReport(w *output, r *runResult) error {
	if r.opts.format == "json" {
		return writeJSON(w, reportValue(r))
	}
	for _, f := range r.files {
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

func reportValue(r *runResult) map[string]any {
	var inputs []map[string]any
	for _, f := range r.files {
		inputs = append(inputs, map[string]any{"file": f.Name, "lines": linesValue(&f.Lines)})
	}
	return map[string]any{
		"inputs":   inputs,
		"lines":    linesValue(&r.lines),
		"problems": problemsValue(&r.lines),
		"stats":    map[string]any{"ops": statsRows(r.agg), "dropped": droppedRows(r.agg)},
		"hist":     map[string]any{"buckets": histRows(r.agg)},
		"agg":      map[string]any{"groups": aggRows(r.agg), "dropped": droppedRows(r.agg)},
		"steps":    stepsValue(r.steps),
		// How many lines the grammar read or checked depends on how chunks met workers, so
		// only the disagreements (zero unless the scanner has a bug) are part of the output.
		"parse": map[string]any{"disagreements": r.parse.Disagree},
	}
}

func section(w *output, title string) { w.printf("\n== %s ==\n", title) }

// lineClassOrder is how the line classes are listed.
var lineClassOrder = []parser.Kind{parser.KindCollective, parser.KindComm, parser.KindProgress,
	parser.KindInfo, parser.KindWarn, parser.KindTrace, parser.KindVersion, parser.KindBlank,
	parser.KindOther, parser.KindMalformed}

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
	t.flush()
}

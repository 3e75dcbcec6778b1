package main

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// linesJSON is the accounting of every line of an input: one count per class (named as
// parser.Kind names it), and the counts that overlap the classes (spliced, unknown_key) or
// stand outside them (unread). Fields are in the order of their names, as they printed when
// this was a map.
type linesJSON struct {
	Blank      int64 `json:"blank"`
	Collective int64 `json:"collective"`
	Comm       int64 `json:"comm"`
	Failure    int64 `json:"failure"`
	Info       int64 `json:"info"`
	Malformed  int64 `json:"malformed"`
	Other      int64 `json:"other"`
	Progress   int64 `json:"progress"`
	Spliced    int64 `json:"spliced"`
	Total      int64 `json:"total"`
	Trace      int64 `json:"trace"`
	UnknownKey int64 `json:"unknown_key"` // collective lines with a field nccllog does not know
	Unread     int64 `json:"unread"`
	Version    int64 `json:"version"`
	Warn       int64 `json:"warn"`
	Watchdog   int64 `json:"watchdog"`
}

func linesValue(l *stages.Lines) linesJSON {
	k := &l.ByKind
	return linesJSON{
		Blank: k[parser.KindBlank], Collective: k[parser.KindCollective], Comm: k[parser.KindComm],
		Info: k[parser.KindInfo], Malformed: k[parser.KindMalformed], Other: k[parser.KindOther],
		Progress: k[parser.KindProgress], Trace: k[parser.KindTrace], Version: k[parser.KindVersion],
		Warn: k[parser.KindWarn], Watchdog: k[parser.KindWatchdog], Failure: k[parser.KindFailure],
		Spliced: l.Spliced, Total: l.Total, UnknownKey: l.UnknownKey, Unread: l.Unread,
	}
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

type inputJSON struct {
	File  string    `json:"file"`
	Lines linesJSON `json:"lines"`
}

type statsOut struct {
	Dropped []droppedJSON `json:"dropped"`
	Ops     []statsJSON   `json:"ops"`
}

type histOut struct {
	Buckets []bucketJSON `json:"buckets"`
}

type aggOut struct {
	Dropped []droppedJSON `json:"dropped"`
	Groups  []groupJSON   `json:"groups"`
}

// parseJSON says how parsing went. How many lines the grammar read or checked depends on how
// chunks met workers, so only the disagreements (zero unless the scanner has a bug) are part
// of the output.
type parseJSON struct {
	Disagreements int64 `json:"disagreements"`
}

// reportJSON is report's JSON; fields in alphabetical order, as it has always listed them.
type reportJSON struct {
	Agg      aggOut        `json:"agg"`
	Hist     histOut       `json:"hist"`
	Inputs   []inputJSON   `json:"inputs"`
	Lines    linesJSON     `json:"lines"`
	Parse    parseJSON     `json:"parse"`
	Problems []problemJSON `json:"problems"`
	Stats    statsOut      `json:"stats"`
	Steps    stepsJSON     `json:"steps"`
}

func reportValue(r *view) reportJSON {
	v := reportJSON{Lines: linesValue(r.lines), Problems: problemsValue(r.lines),
		Stats: statsOut{droppedRows(r.agg), statsRows(r.agg)},
		Hist:  histOut{histRows(r.agg)},
		Agg:   aggOut{droppedRows(r.agg), aggRows(r.agg)},
		Steps: stepsValue(r.steps.Points()),
		Parse: parseJSON{r.res.Parse.Disagree}}
	for _, in := range r.res.Inputs {
		v.Inputs = append(v.Inputs, inputJSON{in.Name, linesValue(&in.Lines)})
	}
	return v
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

package stages

import "github.com/nccllog/nccllog/parser"

// LinesReport is the accounting of every line of an input as report's JSON lists it: one
// count per class (named as parser.Kind names it), and the counts that overlap the classes
// (spliced, unknown_key) or stand outside them (unread). Fields are in the order of their
// names, as they printed when this was a map.
type LinesReport struct {
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

// Report returns l's counts.
func (l *Lines) Report() LinesReport {
	k := &l.ByKind
	return LinesReport{
		Blank: k[parser.KindBlank], Collective: k[parser.KindCollective], Comm: k[parser.KindComm],
		Info: k[parser.KindInfo], Malformed: k[parser.KindMalformed], Other: k[parser.KindOther],
		Progress: k[parser.KindProgress], Trace: k[parser.KindTrace], Version: k[parser.KindVersion],
		Warn: k[parser.KindWarn], Watchdog: k[parser.KindWatchdog], Failure: k[parser.KindFailure],
		Spliced: l.Spliced, Total: l.Total, UnknownKey: l.UnknownKey, Unread: l.Unread,
	}
}

// ProblemReport is one malformed line as report's JSON lists it.
type ProblemReport struct {
	File    string `json:"file"`
	Line    int64  `json:"line"`
	Reason  string `json:"reason"`
	Excerpt string `json:"excerpt"`
}

// ProblemsReport returns the malformed lines l kept (an empty list, not null, where none).
func (l *Lines) ProblemsReport() []ProblemReport {
	out := []ProblemReport{}
	for _, p := range l.Problems {
		out = append(out, ProblemReport(p))
	}
	return out
}

// InputReport is one input's name and lines.
type InputReport struct {
	File  string      `json:"file"`
	Lines LinesReport `json:"lines"`
}

// ParseReport says how parsing went. How many lines the grammar read or checked depends on
// how chunks met workers, so only the disagreements (zero unless the scanner has a bug) are
// part of it.
type ParseReport struct {
	Disagreements int64 `json:"disagreements"`
}

// InputsReport returns each input's lines, in input order (nil where there is none, null in
// JSON, as it has always printed).
func (r *Result) InputsReport() []InputReport {
	var out []InputReport
	for _, in := range r.Inputs {
		out = append(out, InputReport{in.Name, in.Lines.Report()})
	}
	return out
}

// ParseReport returns the run's parse accounting.
func (r *Result) ParseReport() ParseReport { return ParseReport{r.Parse.Disagree} }

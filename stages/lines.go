package stages

import "github.com/nccllog/nccllog/parser"

// Problem is one malformed line, kept with its position.
type Problem struct {
	File    string
	Line    int64
	Reason  string
	Excerpt string
}

// MaxProblems is how many malformed lines a Lines keeps with their positions; the rest are
// counted.
const MaxProblems = 20

// Lines accounts for every input line: each falls into exactly one parser.Kind.
type Lines struct {
	Total  int64
	ByKind [parser.NumKinds]int64
	// Unread lines were passed on without being classed (split reads only step markers).
	Unread  int64
	Spliced int64
	// UnknownKey counts the collective lines read past a `key value` field that nccllog does
	// not know (parser.Line.UnknownKey): their calls are counted, but a new release's field
	// is worth knowing about. Like Spliced, it overlaps the classes.
	UnknownKey int64
	Problems   []Problem
	// Version is the first NCCL or RCCL version a line named ("NCCL 2.21.5+cuda12.4"), or "".
	Version string
}

// Add counts one line; n is its line number (1-based) within the file.
func (l *Lines) Add(n int64, line []byte, p *parser.Line) {
	l.Total++
	l.ByKind[p.Kind]++
	if p.Spliced {
		l.Spliced++
	}
	if p.UnknownKey != "" {
		l.UnknownKey++
	}
	if l.Version == "" && (p.Kind == parser.KindVersion || p.Kind == parser.KindInfo) {
		l.Version = parser.VersionOf(line)
	}
	if p.Kind == parser.KindMalformed && len(l.Problems) < MaxProblems {
		l.Problems = append(l.Problems, Problem{Line: n, Reason: p.Reason, Excerpt: Excerpt(line)})
	}
}

// Merge adds o's counts to l; o's lines come after l's.
func (l *Lines) Merge(o *Lines) {
	l.Total += o.Total
	l.Unread += o.Unread
	for i, v := range o.ByKind {
		l.ByKind[i] += v
	}
	l.Spliced += o.Spliced
	l.UnknownKey += o.UnknownKey
	if l.Version == "" {
		l.Version = o.Version
	}
	for _, p := range o.Problems {
		if len(l.Problems) < MaxProblems {
			l.Problems = append(l.Problems, p)
		}
	}
}

// Malformed is the number of malformed lines.
func (l *Lines) Malformed() int64 { return l.ByKind[parser.KindMalformed] }

// excerpt is the start of a line, made printable.
func Excerpt(b []byte) string {
	const n = 120
	out := make([]rune, 0, n)
	for _, r := range string(b[:min(len(b), n)]) {
		if r < 0x20 || r == 0x7f || r == 0xfffd {
			r = '·'
		}
		out = append(out, r)
	}
	if len(b) > n {
		out = append(out, '…')
	}
	return string(out)
}

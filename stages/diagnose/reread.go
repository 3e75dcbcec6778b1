package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// The parser finds an NCCL line's envelope behind anything before it, but reads the job's
// other lines (a launcher's, an exception's, a watchdog's) only where they open the line or
// follow a prefix it knows. Users bring logs with more before them: pdsh's `node1: ` (how
// DeepSpeed's multi-node launcher shows each host's output), a Markdown quote's `> ` (an
// issue's pasted log), a collector's time before a line the parser does not read behind
// one (ctime.go). Diagnose reads such a line of other text again without what opens it, and
// takes that reading where it is one of those lines.

// rereader reads the text of a line again; made on first use, as most logs never need it.
type rereader struct {
	p    *parser.Parser
	line parser.Line
}

// pasteLabel is the length of what a paste or a fan-out launcher put before a line: a
// Markdown quote's `> `, or a host's label and `: ` (lower-case letters, digits, `.`, `-`,
// `_`: a host name, as pdsh and clush print it; an exception's name has capitals, a
// program's own `prog: ` is read as it was; digits alone are srun's `3: `, which the parser
// reads with its rank); 0 where none.
func pasteLabel(t []byte) int {
	if len(t) > 2 && t[0] == '>' && t[1] == ' ' {
		return 2 // the line as written follows, its own blanks too
	}
	const maxHost = 64
	if !mayOpenLabel[t[0]] {
		return 0
	}
	for i, c := range t[:min(len(t), maxHost+1)] {
		if !hostByte[c] {
			if c == ':' && i > 0 && i+2 < len(t) && t[i+1] == ' ' && srunLabel(t) == 0 {
				return i + 2
			}
			return 0
		}
	}
	return 0
}

// hostByte holds the bytes of a host's label as pasteLabel takes it.
var hostByte = func() (b [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		b[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		b[c] = true
	}
	b['.'], b['-'], b['_'] = true, true, true
	return b
}()

// unlabelled is l, a line of other text, read again behind a label pasteLabel finds or the
// time tidied dropped (dropped), where that reading is a line the parser reads; l otherwise.
func (p *Part) unlabelled(l *stages.Line, dropped bool) *stages.Line {
	if len(l.Text) < 3 {
		return l
	}
	if n := pasteLabel(l.Text); n > 0 || dropped {
		if n > 2 {
			p.label = labelLine{line: l.N, host: l.Text[:n-2]} // read by keep, on this line only
		}
		return p.reread(l, n)
	}
	return l
}

// labelLine is the host a launcher's label names on the line being read (pdsh's, clush's,
// DeepSpeed's multi-node launcher's `worker-1: `): its items that name no process of their
// own are that host's (Part.keep).
type labelLine struct {
	line int64
	host []byte // the line's own bytes: no copy unless an item takes it
}

// names returns the label's host where it looks like one and is on line n.
func (l labelLine) names(n int64) (string, bool) {
	if l.line == 0 || l.line != n || !labelHost(l.host) {
		return "", false
	}
	return string(l.host), true
}

// strangeLabels lets go of the label's host of items where the log's NCCL lines show processes
// and none of their hosts is the label's: pdsh's label then is a name of the host the NCCL lines call otherwise
// (its address, `192.168.1.51: ` before `gpu-a:100:100 [0] NCCL ...`), and an item of it
// would stand apart from that host's process. Where the NCCL lines name no host, or name the
// label's, or a line's label is its own NCCL host (pdsh labels by the names NCCL prints, and a
// host whose NCCL lines the paste left out is still one), the label's host stays.
func strangeLabels(e *Evidence, x *procIndex) {
	if e.Procs == nil || e.LabelHosts {
		return // no NCCL line showed a process, or labels name hosts as NCCL does
	}
	for i := range e.Items {
		it := &e.Items[i]
		if it.Labelled && !knownHost(it.Host, e.Procs, x) {
			it.Host, it.Labelled = "", false
		}
	}
}

// labelIsHost reports whether an NCCL line's text opens with its own host as a launcher's
// label (`node1: node1:15874:17284 [4] NCCL INFO ...`). It runs on a chunk's first
// labelLines INFO lines and every labelLines-th after, until one does (on every line it cost
// the init mix 0.4% of diagnose's instructions): most fail the blank after the host's colon,
// where an unlabelled line has its pid.
func labelIsHost(t []byte, host string) bool {
	n := len(host)
	return n > 0 && len(t) > 2*n+2 && t[n+1] == ' ' && t[n] == ':' && string(t[:n]) == host && string(t[n+2:2*n+2]) == host
}

// labelLines is how many of a chunk's first lines labelIsHost reads, and how far apart
// those it reads after them are.
const labelLines = 64

// knownHost reports whether the NCCL lines name host: the one process they showed is on it,
// or one of their processes with a pid is.
func knownHost(host string, lone *LoneProc, x *procIndex) bool {
	if !lone.Many {
		return lone.Host == host
	}
	_, ok := x.hostPid[host]
	return ok
}

// labelHost reports whether a label looks like a host's name rather than a word a program
// prints before a colon (`error: `, `note: `): it holds a digit, a dot or a dash.
func labelHost(label []byte) bool {
	return len(label) >= 2 && bytes.ContainsAny(label, "0123456789.-")
}

// mayOpenLabel holds the bytes a label pasteLabel finds opens with.
var mayOpenLabel = func() (b [256]bool) {
	b = hostByte
	b['.'], b['-'], b['_'], b['>'] = false, false, false, true
	return b
}()

// mayFollowLabel holds the bytes that may follow a label's first: its own, its colon, or a
// quote's blank.
var mayFollowLabel = func() (b [256]bool) {
	b = hostByte
	b[':'], b[' '] = true, true
	return b
}()

// reread reads l, a line of other text, again from skip bytes on, and returns the line
// that reading makes where it is one the parser reads (a launcher's, an exception's, a
// watchdog's line: not other text, nor an NCCL line, whose envelope the parser found
// already); l otherwise. The line keeps its time where the new reading has none.
func (p *Part) reread(l *stages.Line, skip int) *stages.Line {
	rest := l.Text[skip:]
	if len(rest) == 0 {
		return l
	}
	pl, ok := p.readAgain(rest)
	if !ok {
		return l
	}
	if k := pl.Kind; k != parser.KindFailure && k != parser.KindWatchdog {
		if k == parser.KindOther && testLine(rest, l) {
			c := *l // nccl-tests' own lines, which diagnose reads itself (nccltests.go)
			c.Text = rest
			return &c
		}
		return l
	}
	return readAs(l, rest, pl)
}

// readAgain is the parser's reading of rest as a line of its own: the scanner's, or, for the
// lines the scanner leaves to the grammar (which it does by what it read before, too:
// scan_old.go), the grammar's alone, as the reading must not depend on where a chunk began. A
// longer line is read by its start, as the parser reads one. False where no parser can be made.
func (p *Part) readAgain(rest []byte) (parser.Line, bool) {
	r := p.rereader()
	if r == nil {
		return parser.Line{}, false
	}
	r.line = parser.Line{}
	read := rest[:min(len(rest), parser.MaxRead)]
	if !r.p.Scan(read, &r.line) {
		r.line = r.p.Grammar().Parse(read)
	}
	return r.line, true
}

// readAs is l with the text rest read as pl, which keeps l's time where it has none.
func readAs(l *stages.Line, rest []byte, pl parser.Line) *stages.Line {
	c := *l
	if pl.Time.Form == parser.StampNone {
		pl.Time = l.P.Time
	}
	c.Text, c.P = rest, &pl
	return &c
}

// rereader is p's rereader, made on first use; nil where no parser can be made.
func (p *Part) rereader() *rereader {
	if p.again == nil {
		ps, err := parser.NewParser()
		if err != nil {
			return nil
		}
		p.again = &rereader{p: ps}
	}
	return p.again
}

// bracketed is l, a line of other text that opens with a bracketed time the parser read
// (a logger's `[2024-05-01 10:00:00,123] `), read again behind it (and the prefixes after it)
// where that reading is a line the parser reads; l otherwise. Only the blank after the time
// is dropped: the line's own indent (a root cause block's fields) stays.
func (p *Part) bracketed(l *stages.Line) *stages.Line {
	n := leadEnd(l.Text)
	if n == 0 || n >= len(l.Text) {
		return l
	}
	return p.reread(l, n)
}

// opensBracketed reports whether l opens with a bracketed date: a logger's time, which the
// parser reads as a prefix (the line's time is the one it reads, maybe its own later).
func opensBracketed(l *stages.Line) bool { return l.Text[0] == '[' && opensDate(l.Text[1:]) }

// bracketLen is the length of the bracketed time t opens with and of the blank after it.
func bracketLen(t []byte) int {
	n := bytes.IndexByte(t, ']') + 1
	if n > 0 && n < len(t) && t[n] == ' ' {
		n++
	}
	return n
}

// timeDropped reports whether l is in without a time its text opened with (tidied): its
// text starts later in the same bytes. Blanks dropped at its end alone do not count: the
// parser reads its lines before them.
func timeDropped(l, in *stages.Line) bool { return cap(l.Text) < cap(in.Text) }

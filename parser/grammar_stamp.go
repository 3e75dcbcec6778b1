package parser

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The time grammar reads the opening run of a line, its launcher prefixes, times and white
// space, in stampLexer's tokens; the line's time is the last time of the run (doc.go). It is
// the parser of record for times: the scanner's reader (stamp_read.go) must agree with it.
// The captures (grammar_stamp_values.go) convert the digits the grammar picked out and refuse
// dates and clocks that do not exist, which fails the form that held them.

// gHead is the opening run of a line.
type gHead struct {
	Items []*gHeadItem `parser:"Sp? @@*"`
}

// gHeadItem is one time or launcher prefix of the run, with the white space after it. A time
// is tried first, as a bracketed text that is no time may still be a prefix.
type gHeadItem struct {
	Pos      lexer.Position
	Bracket  *gBracketTime `parser:"(  '[' @@"`
	Bare     *gBareTime    `parser:" | @@"`
	Launcher *gLauncher    `parser:" | @@ ) Sp?"`
}

// gBracketTime is a time in brackets, after the `[`: NCCL's `[%F %T]` and `[%F %T.%Nf]`, a
// glog head `[E1016 03:31:38.928019 file:line]` (white space after the time; the rest of the
// bracket is not read), or any other form in brackets (`[2025-06-11T14:03:27Z]`).
type gBracketTime struct {
	NCCL   *gNCCLTime  `parser:"  @@ ']'"`
	Glog   *gGlogTime  `parser:"| @@ (?! Digit | Letters | Sym)"`
	Dash   *gDashTime  `parser:"| ( @@"`
	Slash  *gSlashTime `parser:"  | @@"`
	Syslog *gSyslog    `parser:"  | @@ ) ']'"`
}

// gBareTime is a time without brackets; white space or the line's end follows it.
type gBareTime struct {
	Dash   *gDashTime  `parser:"(  @@"`
	Slash  *gSlashTime `parser:" | @@"`
	Glog   *gGlogTime  `parser:" | @@"`
	Syslog *gSyslog    `parser:" | @@ ) (?! Digit | Letters | Sym)"`
}

// gNCCLTime is NCCL's default `2025-06-11 14:03:27` with or without `.%Nf` (in brackets).
type gNCCLTime struct {
	Date  stampDate  `parser:"@(Digit Digit Digit Digit '-' Digit Digit '-' Digit Digit) ' '"`
	Clock stampClock `parser:"@(Digit Digit ':' Digit Digit ':' Digit Digit)"`
	Frac  *stampFrac `parser:"( '.' @(Digit+) )?"`
}

// gDashTime is ISO 8601 (`T` or a space, a fraction, `Z` or ±hh:mm / ±hhmm) or Python
// logging's `2025-06-11 14:03:27,512` (a comma before the fraction, no zone).
type gDashTime struct {
	Date  stampDate  `parser:"@(Digit Digit Digit Digit '-' Digit Digit '-' Digit Digit) (' ' | 'T')"`
	Clock stampClock `parser:"@(Digit Digit ':' Digit Digit ':' Digit Digit)"`
	Pylog *stampFrac `parser:"( ',' @(Digit+)"`
	ISO   *gISOTail  `parser:"| @@ )?"`
}

// gISOTail is what may follow an ISO 8601 clock: a fraction, a zone, or both.
type gISOTail struct {
	Frac *stampFrac `parser:"(  '.' @(Digit+)"`
	Zone *stampZone `parser:"   @('Z' | ('+' | '-') Digit Digit ':'? Digit Digit)? | @('Z' | ('+' | '-') Digit Digit ':'? Digit Digit) )"`
}

// gSlashTime is Go's log package's `2025/06/11 14:03:27`, with an optional fraction.
type gSlashTime struct {
	Date  stampDate  `parser:"@(Digit Digit Digit Digit '/' Digit Digit '/' Digit Digit) ' '"`
	Clock stampClock `parser:"@(Digit Digit ':' Digit Digit ':' Digit Digit)"`
	Frac  *stampFrac `parser:"( '.' @(Digit+) )?"`
}

// gGlogTime is a glog head's `E1016 03:31:38.928019`: a level, then month and day (PyTorch's c10
// logger does not pad the month: `E227` is Feb 27).
type gGlogTime struct {
	Date  glogDate   `parser:"('I' | 'W' | 'E' | 'F') @(Digit Digit Digit Digit | Digit Digit Digit) ' '"`
	Clock stampClock `parser:"@(Digit Digit ':' Digit Digit ':' Digit Digit)"`
	Frac  *stampFrac `parser:"( '.' @(Digit+) )?"`
}

// gSyslog is syslog's and ts's `Jun 11 14:03:27` (`Jun  1`: the day padded with a space).
type gSyslog struct {
	Date  syslogDate `parser:"@( ('Jan' | 'Feb' | 'Mar' | 'Apr' | 'May' | 'Jun' | 'Jul' | 'Aug' | 'Sep' | 'Oct' | 'Nov' | 'Dec') (' ' Digit Digit | '  ' Digit) ) ' '"`
	Clock stampClock `parser:"@(Digit Digit ':' Digit Digit ':' Digit Digit)"`
	Frac  *stampFrac `parser:"( '.' @(Digit+) )?"`
}

// gLauncher is a prefix that is no time, the forms gPrefix reads in lineLexer's tokens:
// srun's `3: `, OpenMPI's `[1,3]<stdout>:`, torchrun's `[rank3]:`, a launcher's label
// `[trainer0|0]:`, a bracketed text that
// opens with a date, and Ray's `(RayWorker pid=615, ip=10.72.7.6)`.
type gLauncher struct {
	Srun  *decNum     `parser:"  @(Digit+) ':' Sp"`
	Mpi   *gLaunchMpi `parser:"| '[' @@"`
	Torch *decNum     `parser:"| '[' ('rank' | 'default') @(Digit+) ']' ':'"`
	Label *gTimeLabel `parser:"| '[' @@"`
	Dated *gDatedText `parser:"| '[' @@"`
	Ray   *gLaunchRay `parser:"| '(' @@"`
}

// gTimeLabel is gLabel: `trainer0|0]:` after the `[`. A label's words are identifier bytes
// (labelWord), so the runs of Letters, Digit and '_' here end where lineLexer's Words do, or
// the captures refuse them.
type gTimeLabel struct {
	Name  labelName  `parser:"@(Letters | Digit | '_')+ '|'"`
	Index labelIndex `parser:"@(Letters | Digit | '_')+ ']' ':'"`
}

// gLaunchMpi is gMpi: `1,3]<stdout>:` after the `[`.
type gLaunchMpi struct {
	Job  decNum `parser:"@(Digit+) ','"`
	Rank decNum `parser:"@(Digit+) ']' '<' ('stdout' | 'stderr') '>' ':'"`
}

// gDatedText is gStamp: a four-digit Word, '-', a Word, '-', a Word, then anything up to `]`.
type gDatedText struct {
	Year  decNum   `parser:"(?! (Digit | Letters) (Digit | Letters | '.' | '_' | '-')* ':' Digit+ ':' Digit) @(Digit Digit Digit Digit) '-'"`
	Month *gWord   `parser:"@@ '-'"`
	Day   *gWord   `parser:"@@"`
	Rest  []string `parser:"@(~']')* ']'"`
}

// gLaunchRay is gRay: `RayWorker pid=615, ip=10.72.7.6)`, `worker1, rank=1, pid=2634)` or
// `pid=927)` after the `(`.
type gLaunchRay struct {
	Actor *gWord  `parser:"( @@"`
	Node  *decNum `parser:"  ( ',' Sp 'rank' '=' @(Digit+) ',' )? Sp )? 'pid' '='"`
	Pid   decNum  `parser:"@(Digit+)"`
	IP    *gWord  `parser:"( ',' Sp 'ip' '=' @@ )? ')'"`
}

// gWord is lineLexer's Word in these tokens: a run of bytes that are neither white space nor
// lineLexer's Punct, where no HPT (`host:pid:tid`) starts, and that ends before an HPT run
// on after a byte that cannot be in a host name.
type gWord struct {
	Text []string `parser:"(?! (Digit | Letters) (Digit | Letters | '.' | '_' | '-')* ':' Digit+ ':' Digit) @( Digit | Letters | '.' | '_' | (?! ':' | '[' | ']' | '(' | ')' | '<' | '>' | '=' | ',' | '|' | '/' | '-' | '.' | '_') Sym (?! (Digit | Letters) (Digit | Letters | '.' | '_' | '-')* ':' Digit+ ':' Digit) )+"`
}

// gTraceStamp is an NCCL TRACE line's milliseconds since init, `1843.225104` (NCCL's %f), the
// first word of its location.
type gTraceStamp struct {
	Ms   traceMs   `parser:"@(Digit+) '.'"`
	Frac stampFrac `parser:"@(Digit+)"`
}

// stampGrammar is the time grammar and the TRACE time's.
type stampGrammar struct {
	head  *participle.Parser[gHead]
	trace *participle.Parser[gTraceStamp]
}

// builtStampGrammar builds the time grammars on first use (about 5 ms, a few percent of a
// short run's CPU): a log whose lines all open with a host name and hold no TRACE line never
// needs them. They are never changed after that.
var builtStampGrammar = sync.OnceValue(buildStampGrammar)

func buildStampGrammar() *stampGrammar {
	opts := []participle.Option{participle.Lexer(stampLexer), participle.UseLookahead(participle.MaxLookahead)}
	return &stampGrammar{
		head:  participle.MustBuild[gHead](opts...),
		trace: participle.MustBuild[gTraceStamp](opts...),
	}
}

// headTime returns the time of line b: the last time in the run that opens it, among the
// items that start within stampWindow-stampMax bytes. It lexes only lines that may hold one
// (mayHoldHeadTime): the grammar is slow (a hundred microseconds and more a line), and
// Parser checks the first lines of every shape with it, of which most hold no time.
func (g *Grammar) headTime(b []byte) Stamp {
	if !mayHoldHeadTime(b) {
		return Stamp{}
	}
	return g.readHeadTime(b)
}

// mayHoldHeadTime reports whether line b may open with a time: its run opens with a byte a
// GHeadItem can start with (headOpeners), and its first stampWindow bytes hold a clock's
// `:dd:` (hasClock), as every time the grammar reads there does: an item counts only where
// it starts within stampWindow-stampMax bytes, and its clock follows within stampMax.
func mayHoldHeadTime(b []byte) bool {
	i := spEnd(b, 0)
	return i < len(b) && headOpeners[b[i]] && hasClock(b)
}

// readHeadTime is headTime without its gate. Only the first stampWindow bytes are read: an
// item that starts in time reads no further (a time ends within stampMax bytes), and what an
// item that runs on past them is does not matter, as no item after it counts.
func (g *Grammar) readHeadTime(b []byte) Stamp {
	head, err := g.stamp().head.ParseString("", string(b[:min(len(b), stampWindow)]), participle.AllowTrailing(true))
	if err != nil {
		return Stamp{}
	}
	var last Stamp
	for _, it := range head.Items {
		if it.Pos.Offset > stampWindow-stampMax {
			break
		}
		if st := it.stamp(); !st.IsZero() {
			last = st
		}
	}
	return last
}

// headOpeners is the set of bytes a GHeadItem can start with: a digit (a date, srun's
// label), `[`, `(`, a glog level (I, W, E, F) and a month's initial (J, F, M, A, S, O, N, D).
var headOpeners = func() (t [256]bool) {
	for _, c := range []byte("0123456789[(IWEFJMASOND") {
		t[c] = true
	}
	return t
}()

// traceTime reads a TRACE line's time since init from the first word of its location.
func (g *Grammar) traceTime(loc string) (Stamp, bool) {
	t, err := g.stamp().trace.ParseString("", loc)
	if err != nil {
		return Stamp{}, false
	}
	return Stamp{Nanos: traceNanos(int64(t.Ms), t.Frac.nanos), Form: StampTrace, Digits: t.Frac.digits}, true
}

// timeReader says who reads the times of a line for a Grammar.
type timeReader uint8

const (
	timeByGrammar timeReader = iota // the time grammars: the parser of record
	// timeByScanner is the scanner's readers (headStamp, traceStamp), which the agreement
	// tests hold to the time grammars on every line.
	timeByScanner
)

// withScannerTimes returns a copy of g that reads times with the scanner's readers, for
// Parser: it reads with the grammar lines the scanner leaves to it (every TRACE line among
// them) and checks the scanner on the first lines of each shape, and the time grammars would
// add a tenth to a TRACE line's cost and more to a checked line's.
func (g *Grammar) withScannerTimes() *Grammar {
	c := *g
	c.times = timeByScanner
	return &c
}

// lineTime returns the time at the head of line b, as g.times reads it.
func (g *Grammar) lineTime(b []byte) Stamp {
	if g.times == timeByScanner {
		return headStamp(b)
	}
	return g.headTime(b)
}

// sinceInit returns a TRACE line's time since init from the first word of its location, as
// g.times reads it.
func (g *Grammar) sinceInit(loc string) (Stamp, bool) {
	if g.times == timeByScanner {
		return traceStamp(loc)
	}
	return g.traceTime(loc)
}

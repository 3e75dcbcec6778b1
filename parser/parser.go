package parser

import "math/bits"

// Parser reads lines with the scanner where it can and the grammar where it must. The grammar
// also reads the 1st, 4th, 16th, 64th, ... line of every shape the scanner answers for; where
// the two disagree the grammar's reading is used, the shape goes to the grammar from then on
// (unless it is one of the shapes that share the table's overflow count), and the
// disagreement is counted in Stats. The time grammar checks the times of the first line of
// each shape (grammarFor); the other lines the grammar reads take the scanner's times, which
// the agreement tests hold to it. A Parser is for one goroutine.
type Parser struct {
	sc *scanner
	g  *Grammar
	// gScan is g with the scanner's times (Grammar.withScannerTimes), for the lines the
	// scanner leaves to the grammar and for the checks after each shape's first.
	gScan  *Grammar
	shapes *shapeTable
	// recent holds the shapes of recent lines in front of the table, by the shape's low bits:
	// a log's lines take a few dozen shapes, interleaved.
	recent [64]recentShape
	Stats  Stats
}

type recentShape struct {
	sh uint64
	st *shapeState
}

// Stats says how the lines were read.
type Stats struct {
	Lines    int64 // lines parsed
	Grammar  int64 // lines read by the grammar alone
	Checked  int64 // lines the scanner read and the grammar checked
	Disagree int64 // lines where the two disagreed (the grammar's reading was used)
	// FirstDisagree is the start of the first line where they disagreed.
	FirstDisagree string
}

// NewParser returns a Parser with its own scanner and grammar.
func NewParser() (*Parser, error) {
	g, err := NewGrammar()
	if err != nil {
		return nil, err
	}
	return &Parser{sc: newScanner(), g: g, gScan: g.withScannerTimes(), shapes: new(shapeTable)}, nil
}

// MaxRead is how much of a line is read: a longer line is classed by its first MaxRead bytes.
// NCCL prints at most 1 KiB a line before 2.29 (what follows on the over-long lines of
// 2.13-2.19 is stack garbage) and RCCL 4 KiB; the grammar's time grows with a line's length,
// so a hostile megabyte line must not reach it whole.
const MaxRead = 4 << 10

// Parse reads one line (without its newline) into l.
func (p *Parser) Parse(line []byte, l *Line) {
	p.Stats.Lines++
	if len(line) > MaxRead {
		line = line[:MaxRead]
	}
	sh, ok := p.sc.scan(line, l)
	if !ok {
		p.Stats.Grammar++
		*l = p.gScan.Parse(line)
		return
	}
	r := &p.recent[sh*0x9E3779B97F4A7C15>>58]
	if r.st == nil || r.sh != sh {
		*r = recentShape{sh, p.shapes.get(sh)}
	}
	st := r.st
	st.seen++
	if !st.grammarOnly && !powerOf4(st.seen) {
		return
	}
	gl := p.grammarFor(st).Parse(line)
	if st.grammarOnly {
		p.Stats.Grammar++
		*l = gl
		return
	}
	p.Stats.Checked++
	if !sameLine(&gl, l) {
		p.disagree(line)
		// The shared overflow count stays sampled: one faulty shape among many must not send
		// every line of every other to the grammar.
		st.grammarOnly = st != &p.shapes.overflow
		*l = gl
	}
}

func (p *Parser) disagree(line []byte) {
	p.Stats.Disagree++
	if p.Stats.FirstDisagree == "" {
		p.Stats.FirstDisagree = string(line[:min(len(line), 200)])
	}
}

// Merge adds the counts of o to s.
func (s *Stats) Merge(o Stats) {
	s.Lines += o.Lines
	s.Grammar += o.Grammar
	s.Checked += o.Checked
	s.Disagree += o.Disagree
	if s.FirstDisagree == "" {
		s.FirstDisagree = o.FirstDisagree
	}
}

// Grammar returns the Parser's grammar, for callers that want the parser of record alone.
func (p *Parser) Grammar() *Grammar { return p.g }

// Scan reads a line with the scanner alone; ok is false where the scanner defers to the
// grammar. It exists so that tests can hold the two side by side.
func (p *Parser) Scan(line []byte, l *Line) (ok bool) {
	_, ok = p.sc.scan(line, l)
	return ok
}

// powerOf4 reports whether n is 1, 4, 16, 64, ...: the lines of a shape that the grammar
// checks. The check costs tens of microseconds, so it must stay rare on long logs.
func powerOf4(n uint64) bool {
	return bits.OnesCount64(n) == 1 && bits.TrailingZeros64(n)%2 == 0
}

// sameLine reports whether a and b read the same: as ==, but a failure line's Failure is
// compared by value (each reading allocates its own).
func sameLine(a, b *Line) bool {
	if a.Fail == nil || b.Fail == nil {
		return *a == *b
	}
	x, y := *a, *b
	x.Fail, y.Fail = nil, nil
	return x == y && *a.Fail == *b.Fail
}

// grammarFor returns the grammar that reads a line of shape st: the parser of record on the
// first line of a shape and on every line of a shape gone to the grammar, and otherwise the
// copy that takes the scanner's times. The time grammar costs a hundred microseconds and more
// a line; the first line checks the time form of most shapes, as a time in brackets is a
// prefix, which the shape holds.
func (p *Parser) grammarFor(st *shapeState) *Grammar {
	if st.grammarOnly || st.seen == 1 {
		return p.g
	}
	return p.gScan
}

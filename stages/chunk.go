package stages

import "github.com/nccllog/nccllog/parser"

// Chunk runs the stages over one run of consecutive lines. Step markers cut it into pieces;
// a piece whose step is known inside the chunk goes to Sel (if selected) or is dropped. The
// one piece whose step depends on other chunks (the head with BoundaryStart, the tail with
// BoundaryEnd, or all of a chunk without markers) is kept as Open for the Merger to settle.
type Chunk struct {
	cfg   *Config
	Lines Lines
	Steps *Steps
	Sel   *piece
	Open  *piece
	cur   *piece
	// Markers are the step numbers of the chunk's progress lines, in order.
	Markers []int64
	n       int64
}

// NewChunk starts a chunk.
func NewChunk(cfg *Config) *Chunk {
	return &Chunk{cfg: cfg, Steps: NewSteps(), Sel: newPiece(cfg.Needs), cur: newPiece(cfg.Needs)}
}

// AddUnread takes n whole lines at [off, end) that were not read because the run needs only
// their bytes and the step markers (split): they are counted, and kept for output.
func (c *Chunk) AddUnread(n, off, end int64) {
	c.n += n
	c.Lines.Total += n
	c.Lines.Unread += n
	if c.cfg.Needs&NeedLines != 0 && end > off {
		c.cur.addRange(Range{off, end})
	}
}

// Add runs the stages over one line: line n of the chunk (1-based), at byte offset off of
// the chunk's data, with its newline ending at end.
func (c *Chunk) Add(line []byte, off, end int64, l *parser.Line) {
	c.n++
	c.Lines.Add(c.n, line, l)
	if l.Kind == parser.KindProgress {
		c.marker(l, off, end)
		return
	}
	c.addTo(c.cur, line, off, end, l)
}

func (c *Chunk) addTo(p *piece, line []byte, off, end int64, l *parser.Line) {
	n := c.cfg.Needs
	if n&NeedLines != 0 {
		p.addRange(Range{off, end})
	}
	if n&NeedRanks != 0 {
		p.addEvent(c.n, line, l)
	}
	if l.Kind != parser.KindCollective {
		return
	}
	if p.agg != nil {
		p.agg.Add(l.Coll.Op, l.Coll.Count, l.Coll.Datatype)
	}
	if n&NeedCalls != 0 {
		call := Call{Line: c.n, Step: -1, Rank: l.Rank, Env: l.Env, Coll: l.Coll}
		call.Dropped = l.Coll.Count <= 0 || DtypeSize(l.Coll.Datatype) == 0
		p.calls = append(p.calls, call)
	}
}

// marker handles a progress line: it belongs to the piece it ends (BoundaryEnd) or starts
// (BoundaryStart), and closes the piece before it.
func (c *Chunk) marker(l *parser.Line, off, end int64) {
	step := l.Prog.Step
	if c.cfg.Steps == nil || c.cfg.Steps.Has(step) {
		c.Steps.Add(&l.Prog)
	}
	if c.cfg.Boundary == BoundaryEnd {
		c.addTo(c.cur, nil, off, end, l)
		c.closePiece(step)
	} else {
		c.closePiece(c.lastMarker())
		c.addTo(c.cur, nil, off, end, l)
	}
	c.Markers = append(c.Markers, step)
}

// closePiece settles the current piece as belonging to step (-1: not known in this chunk).
func (c *Chunk) closePiece(step int64) {
	switch {
	case step < 0:
		c.Open, c.cur = c.cur, newPiece(c.cfg.Needs)
		return
	case c.cfg.Selects(step):
		c.cur.setStep(step)
		c.Sel.merge(c.cur)
	default:
		// Not selected, but its calls still count in each rank's call order.
		c.cur.setStep(step)
		c.Sel.events = append(c.Sel.events, c.cur.events...)
	}
	c.cur.reset()
}

func (c *Chunk) lastMarker() int64 {
	if len(c.Markers) == 0 {
		return -1
	}
	return c.Markers[len(c.Markers)-1]
}

// Finish closes the last piece. Call it once, after the last Add.
func (c *Chunk) Finish() {
	if c.cfg.Boundary == BoundaryStart && len(c.Markers) > 0 {
		c.closePiece(c.lastMarker())
		return
	}
	// The whole chunk when it has no marker; with BoundaryEnd, the tail after the last one.
	c.Open, c.cur = c.cur, nil
}

// LineCount is the number of lines added.
func (c *Chunk) LineCount() int64 { return c.n }

// addEvent keeps the lines Ranks follows: calls, communicator lines and WARNs.
func (p *piece) addEvent(n int64, line []byte, l *parser.Line) {
	e := RankEvent{Line: n, Step: -1, Kind: l.Kind, Host: l.Env.Host, Pid: l.Env.Pid, Dev: l.Env.Dev}
	switch l.Kind {
	case parser.KindCollective:
		e.Coll = l.Coll
	case parser.KindComm:
		c := l.Comm
		e.Comm = &c
	case parser.KindWarn:
		e.Text = excerpt(line)
	default:
		return
	}
	p.events = append(p.events, e)
}

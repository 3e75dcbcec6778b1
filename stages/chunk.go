package stages

import (
	"slices"
	"sync"

	"github.com/nccllog/nccllog/parser"
)

// Chunk runs the stages of a plan over one run of consecutive lines. Step markers cut it into
// stretches; a stretch whose step is known inside the chunk is settled and merged into Sel.
// The one stretch whose step depends on other chunks (the head with BoundaryStart, the tail
// with BoundaryEnd, or all of a chunk without markers) is kept as Open for the Merger.
type Chunk struct {
	plan *Plan
	Sel  *Set
	Open *Set // nil where every stretch was settled
	cur  *Set
	// spare is a released chunk's Open, ready to become the next one.
	spare *Set
	// Markers are the step numbers of the chunk's progress lines, in order.
	Markers []int64
	// TailOff and TailLines say where the lines after the last marker start (BoundaryEnd):
	// at that byte of the chunk's data, after that many lines; 0 and 0 without a marker.
	TailOff, TailLines int64
	n                  int64
	line               Line // the line being added: a field, as a local would escape to the heap
}

// NewChunk starts a chunk, reusing a released one of the plan where there is one.
func NewChunk(plan *Plan) *Chunk {
	c, most := plan.chunks.get()
	if c != nil {
		return c
	}
	c = &Chunk{plan: plan, Sel: NewSet(plan), cur: NewSet(plan)}
	for i, n := range most {
		if n > 0 {
			c.Sel.Parts[i].(Reserver).Reserve(n)
		}
	}
	return c
}

// Release hands c back for a later chunk of its plan, once the Merger has merged it (which
// leaves its Sets with buffers to reuse and nothing of their own). c must not be used after.
func (c *Chunk) Release() {
	if c.cur == nil {
		c.cur, c.Open = c.Open, nil
	}
	if c.Open != nil {
		c.spare, c.Open = c.Open, nil
	}
	for _, s := range []*Set{c.Sel, c.cur, c.spare} {
		if s != nil {
			s.Reset()
		}
	}
	// Everything else starts anew, as in a new Chunk.
	*c = Chunk{plan: c.plan, Sel: c.Sel, cur: c.cur, spare: c.spare, Markers: c.Markers[:0]}
	c.plan.chunks.put(c)
}

func (c *Chunk) newSet() *Set {
	if s := c.spare; s != nil {
		c.spare = nil
		return s
	}
	return NewSet(c.plan)
}

// AddUnread takes n whole lines at [off, end) that were passed over unread.
func (c *Chunk) AddUnread(n, off, end int64) {
	c.line = Line{N: c.n + 1, Off: off, End: end, Unread: n}
	c.cur.Add(&c.line)
	c.n += n
}

// Add takes the next line: text (without its newline) at byte offset off of the chunk's data,
// its newline ending at end, parsed as l.
func (c *Chunk) Add(text []byte, off, end int64, l *parser.Line) {
	c.n++
	c.line = Line{N: c.n, Text: text, Off: off, End: end, P: l}
	line := &c.line
	if l.Kind != parser.KindProgress {
		c.cur.Add(line)
		return
	}
	// A marker belongs to the stretch it ends (BoundaryEnd) or starts (BoundaryStart).
	step := l.Prog.Step
	if c.plan.Boundary == BoundaryEnd {
		c.cur.Add(line)
		c.settle(step)
		c.TailOff, c.TailLines = end, c.n
	} else {
		c.settle(c.lastMarker())
		c.cur.Add(line)
	}
	c.Markers = append(c.Markers, step)
}

// settle closes the current stretch as belonging to step; -1 means its step is not known in
// this chunk, and it becomes Open.
func (c *Chunk) settle(step int64) {
	if step < 0 {
		c.Open, c.cur = c.cur, c.newSet()
		return
	}
	c.cur.Settle(step, c.plan.Selects(step))
	c.Sel.Merge(c.cur)
	c.cur.Reset()
}

func (c *Chunk) lastMarker() int64 {
	if len(c.Markers) == 0 {
		return -1
	}
	return c.Markers[len(c.Markers)-1]
}

// Finish closes the last stretch. Call it once, after the last Add.
func (c *Chunk) Finish() {
	if c.plan.Boundary == BoundaryStart && len(c.Markers) > 0 {
		c.settle(c.lastMarker())
		c.plan.chunks.saw(c.Sel)
		return
	}
	// The whole chunk when it has no marker; with BoundaryEnd, the tail after the last one.
	c.Open, c.cur = c.cur, nil
	c.plan.chunks.saw(c.Sel)
}

// LineCount is the number of lines taken.
func (c *Chunk) LineCount() int64 { return c.n }

// spareChunks holds a plan's released Chunks for its later chunks. A sync.Pool would not
// do: the collector empties it every other cycle, and a Chunk made anew grows each of its
// held lists again to a chunk's lines, a megabyte of fresh memory for the ranks events of
// 1 MiB of calls. It holds no more Chunks than were in flight at once, up to maxSpareChunks,
// and lets go of those a stretch of the run did not need (see put).
type spareChunks struct {
	mu   sync.Mutex
	list []*Chunk // the one released last at the end
	// low is the fewest the list held since it was last trimmed, puts the Chunks released
	// since.
	low, puts int
	// most is, for each Partial of a Set that is a Reserver, the most items a chunk's Sel
	// held once read; nil until a chunk was read.
	most []int
}

// maxSpareChunks bounds the Chunks a plan keeps where a run has more in flight (three per
// worker and two per input read at once: eight with two workers).
const maxSpareChunks = 64

// ReleaseChunks lets go of the released Chunks p keeps for its later chunks, and of its
// finished inputs' waiting Sets. A run calls it when it ends: its Result refers to p, and
// would keep their buffers alive.
func (p *Plan) ReleaseChunks() {
	s := &p.chunks
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.list)
	s.list, s.low, s.puts = nil, 0, 0
	p.sets.release()
}

// SpareChunks reports how many released Chunks p keeps for its later chunks, their lists'
// buffers a megabyte and more each: the most a run keeps is bounded, and a stretch of the run
// that needs fewer than it keeps lets the rest go (ReleaseChunks lets go of all).
func (p *Plan) SpareChunks() int {
	s := &p.chunks
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.list)
}

// get returns the Chunk released last, or nil and the room a new one's Reservers are to
// make (see saw), which the caller may read but not change.
func (s *spareChunks) get() (*Chunk, []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.list)
	if n == 0 {
		return nil, s.most
	}
	c := s.list[n-1]
	s.list[n-1] = nil
	s.list = s.list[:n-1]
	s.low = min(s.low, len(s.list))
	return c, nil
}

// saw notes how many items the Reservers of sel, a chunk's Sel once read, hold.
func (s *spareChunks) saw(sel *Set) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, p := range sel.Parts {
		r, ok := p.(Reserver)
		if !ok {
			continue
		}
		if s.most == nil {
			s.most = make([]int, len(sel.Parts))
		}
		if n := r.Held(); n > s.most[i] {
			// A new slice: get's callers read the one they were given without the lock.
			most := slices.Clone(s.most)
			most[i] = n
			s.most = most
		}
	}
}

// put keeps c for a later chunk. Every trimEvery Chunks released, those at the bottom of the
// list that stayed there all along (as many as the fewest it held) are let go: a run that
// once had more in flight (several inputs read at once, their chunks' lists each a megabyte)
// does not keep them to its end.
func (s *spareChunks) put(c *Chunk) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.list) < maxSpareChunks {
		s.list = append(s.list, c)
	}
	if s.puts++; s.puts >= trimEvery {
		n := copy(s.list, s.list[s.low:])
		clear(s.list[n:])
		s.list = s.list[:n]
		s.low, s.puts = n, 0
	}
}

// trimEvery is how many Chunks are released between trims of the list: 64 MiB of input.
const trimEvery = 64

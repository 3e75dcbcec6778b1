package diagnose

import (
	"cmp"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// commKey is one communicator on one process.
type commKey struct {
	Host string `json:"host"`
	Pid  int64  `json:"pid"`
	Comm uint64 `json:"comm"`
}

// cmpComms orders communicators by where their lines start (file and line, which the order
// of the inputs does not change), then by host, process and communicator.
func cmpComms(a, b *commState) int {
	ma, mb := a.first(), b.first()
	return cmp.Or(strings.Compare(ma.File, mb.File), cmp.Compare(ma.Line, mb.Line),
		strings.Compare(a.Host, b.Host), cmp.Compare(a.Pid, b.Pid), cmp.Compare(a.Comm, b.Comm))
}

// Mark is where a communicator event was read.
type Mark struct {
	File string `json:"file"`
	Line int64  `json:"line"`
	Time When   `json:"time"`
}

// commState is what one process's lines say of one communicator's life: whether it started,
// completed its init, aborted or was destroyed, with where each was first read.
type commState struct {
	commKey
	Rank     int64 `json:"rank"`
	NRanks   int64 `json:"nranks"`
	GPU      int64 `json:"gpu"`
	Start    *Mark `json:"start,omitempty"`
	Complete *Mark `json:"complete,omitempty"`
	Abort    *Mark `json:"abort,omitempty"`
	Destroy  *Mark `json:"destroy,omitempty"`
	// lines is how many lifecycle lines were folded into it: a Partial that cannot keep it
	// counts them as left out. A state read from a partial result counts its marks.
	lines int64
}

// maxComms bounds the communicators kept (per process and communicator); the lifecycle
// lines of others are counted in Part.CommsLeft.
const maxComms = 1 << 14

// maxCommLines bounds the lines a Partial lists before it folds them into its states.
const maxCommLines = 1 << 12

// merge takes o, the same communicator's state in the lines that follow.
func (c *commState) merge(o *commState) {
	if c.Rank < 0 {
		c.Rank, c.NRanks = o.Rank, o.NRanks
	}
	if c.GPU < 0 {
		c.GPU = o.GPU
	}
	for _, m := range [...]struct{ to, from **Mark }{{&c.Start, &o.Start}, {&c.Complete, &o.Complete},
		{&c.Abort, &o.Abort}, {&c.Destroy, &o.Destroy}} {
		if *m.to == nil {
			*m.to = *m.from
		}
	}
	c.lines += o.lines
}

// marks calls f on every mark c holds.
func (c *commState) marks(f func(*Mark)) {
	for _, m := range [...]*Mark{c.Start, c.Complete, c.Abort, c.Destroy} {
		if m != nil {
			f(m)
		}
	}
}

// lifeEvent is which of the four lifecycle events a communicator line is.
type lifeEvent uint8

const (
	lifeNone lifeEvent = iota
	lifeStart
	lifeComplete
	lifeAbort
	lifeDestroy
)

// lifeEventOf reads a communicator line's event; lifeNone for the other communicator lines.
func lifeEventOf(ev string) lifeEvent {
	switch ev {
	case "Init START":
		return lifeStart
	case "Init COMPLETE":
		return lifeComplete
	case "Abort COMPLETE":
		return lifeAbort
	case "Destroy COMPLETE":
		return lifeDestroy
	}
	return lifeNone
}

// commLine is a communicator lifecycle line as a chunk's Part lists it: only the Partial
// it is merged into folds such lines into states (fold). A state and its marks made in every
// chunk for each of its communicators cost diagnose a fifth of its time on a log of tens of
// thousands of processes setting up communicators (most of them past maxComms): in
// allocation, the collector's marking and page faults.
type commLine struct {
	commKey
	File              string // "" until anchored
	Line              int64  // in its chunk until anchored
	Rank, NRanks, GPU int64
	// Its time is its Stamp's fields, whose padding Ev and anchored share: 96 bytes a line
	// rather than 104 (a chunk of a log of set-up lists thousands).
	Nanos    int64
	Form     parser.StampForm
	Digits   uint8
	Zoned    bool
	Ev       lifeEvent
	anchored bool
}

// commLineOf is line n, l, a communicator line of lifecycle event ev (not lifeNone).
func commLineOf(ev lifeEvent, n int64, l *parser.Line) commLine {
	return commLine{commKey: commKey{l.Env.Host, l.Env.Pid, l.Comm.Comm}, Line: n, Rank: l.Comm.Rank,
		NRanks: l.Comm.NRanks, GPU: l.Comm.CudaDev, Nanos: l.Time.Nanos, Form: l.Time.Form, Digits: l.Time.Digits,
		Zoned: l.Time.Zoned, Ev: ev}
}

// commEvent folds c into st, and returns the mark it made, nil where st had that event's
// mark already.
func commEvent(st *commState, c *commLine, marks *slab[Mark]) *Mark {
	to := &st.Destroy
	switch c.Ev {
	case lifeStart:
		to = &st.Start
	case lifeComplete:
		to = &st.Complete
	case lifeAbort:
		to = &st.Abort
	}
	var m *Mark
	if *to == nil {
		m = marks.new()
		*m = Mark{File: c.File, Line: c.Line, Time: When{Stamp: parser.Stamp{Nanos: c.Nanos, Form: c.Form, Digits: c.Digits, Zoned: c.Zoned}}}
		*to = m
	}
	if c.Rank >= 0 && st.Rank < 0 {
		st.Rank, st.NRanks = c.Rank, c.NRanks
	}
	if st.GPU < 0 && c.GPU >= 0 {
		st.GPU = c.GPU
	}
	return m
}

// first is the communicator's first mark read: its start, else the first of the others.
func (c *commState) first() Mark {
	for _, m := range [...]*Mark{c.Start, c.Complete, c.Abort, c.Destroy} {
		if m != nil {
			return *m
		}
	}
	return Mark{}
}

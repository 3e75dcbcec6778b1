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
}

// maxComms bounds the communicators kept (per process and communicator); the Init lines of
// others are counted in Part.CommsLeft.
const maxComms = 1 << 14

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
}

// marks calls f on every mark c holds.
func (c *commState) marks(f func(*Mark)) {
	for _, m := range [...]*Mark{c.Start, c.Complete, c.Abort, c.Destroy} {
		if m != nil {
			f(m)
		}
	}
}

// commEvent reads a communicator lifecycle line into st; false for lines that are none of
// the four events.
func commEvent(st *commState, n int64, l *parser.Line) bool {
	m := &Mark{Line: n, Time: When{Stamp: l.Time}}
	var to **Mark
	switch l.Comm.Event {
	case "Init START":
		to = &st.Start
	case "Init COMPLETE":
		to = &st.Complete
	case "Abort COMPLETE":
		to = &st.Abort
	case "Destroy COMPLETE":
		to = &st.Destroy
	default:
		return false
	}
	if *to == nil {
		*to = m
	}
	if l.Comm.Rank >= 0 && st.Rank < 0 {
		st.Rank, st.NRanks = l.Comm.Rank, l.Comm.NRanks
	}
	if st.GPU < 0 && l.Comm.CudaDev >= 0 {
		st.GPU = l.Comm.CudaDev
	}
	return true
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

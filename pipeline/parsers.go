package pipeline

import (
	"sync"

	"github.com/nccllog/nccllog/parser"
)

// Parsers lends Parsers to workers, one to a worker at a time, and keeps them between inputs
// and, where a caller passes one in Options, between runs. A Parser learns as it reads: the
// grammar checks the first lines of every shape it meets, and its scanner remembers each
// thread's last lines. A fresh Parser for each input of a run with hundreds of small
// per-process files spent most of the run in those checks. The zero value is ready to use,
// and it is safe for concurrent runs.
type Parsers struct {
	mu   sync.Mutex
	free []*parser.Parser
	// bufs are lookahead buffers let go by inputs whose reading ahead is over, at most
	// keptBufs of them.
	bufs [][]byte
}

// keptBufs is how many lookahead buffers a run keeps between inputs: about as many as
// inputs are merged at once.
const keptBufs = 4

// buf lends a lookahead buffer, or nil where none is free.
func (ps *Parsers) buf() []byte {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	n := len(ps.bufs)
	if n == 0 {
		return nil
	}
	b := ps.bufs[n-1]
	ps.bufs = ps.bufs[:n-1]
	return b
}

// putBuf takes back a lookahead buffer.
func (ps *Parsers) putBuf(b []byte) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if cap(b) > 0 && len(ps.bufs) < keptBufs {
		ps.bufs = append(ps.bufs, b)
	}
}

// get lends a Parser, with its Stats set to zero so that they count what the borrower reads.
func (ps *Parsers) get() (*parser.Parser, error) {
	ps.mu.Lock()
	if n := len(ps.free); n > 0 {
		p := ps.free[n-1]
		ps.free = ps.free[:n-1]
		ps.mu.Unlock()
		p.Stats = parser.Stats{}
		return p, nil
	}
	ps.mu.Unlock()
	return parser.NewParser()
}

// put takes back a Parser lent by get.
func (ps *Parsers) put(p *parser.Parser) {
	ps.mu.Lock()
	ps.free = append(ps.free, p)
	ps.mu.Unlock()
}

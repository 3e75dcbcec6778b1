package pipeline

import (
	"sync"

	"github.com/nccllog/nccllog/parser"
)

// parsers lends Parsers to workers, one to a worker at a time, and keeps them between inputs.
// A Parser learns as it reads: the grammar checks the first lines of every shape it meets,
// and its scanner remembers each thread's last lines. A fresh Parser for each input of a
// run with hundreds of small per-process files spent most of the run in those checks.
type parsers struct {
	mu   sync.Mutex
	free []*parser.Parser
}

// get lends a Parser, with its Stats set to zero so that they count what the borrower reads.
func (ps *parsers) get() (*parser.Parser, error) {
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
func (ps *parsers) put(p *parser.Parser) {
	ps.mu.Lock()
	ps.free = append(ps.free, p)
	ps.mu.Unlock()
}

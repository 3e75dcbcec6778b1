package stages

import "sync"

// A Reserver is a Holder that can make room for n items ahead, in one allocation, rather
// than grow its buffer a stretch at a time (ranks holds every call of a chunk).
type Reserver interface {
	Holder
	Reserve(n int)
}

// chunkSizes is how many items the Reservers of the plan's last parsed chunk held, by
// stage: a new Chunk's Sel reserves as much, as the chunks of an input are alike.
type chunkSizes struct {
	mu sync.Mutex
	n  []int // by index in Plan.Stages; nil until a chunk is parsed
}

// note keeps what s, a parsed chunk's Sel, holds.
func (c *chunkSizes) note(s *Set) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = make([]int, len(s.Parts))
	}
	for i, p := range s.Parts {
		if r, ok := p.(Reserver); ok {
			c.n[i] = r.Held()
		}
	}
}

// reserve makes room in s, a new Chunk's Sel, for what the last chunk held and a quarter
// more: chunks differ by a few lines, and one line too many would copy all of them.
func (c *chunkSizes) reserve(s *Set) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, n := range c.n {
		if r, ok := s.Parts[i].(Reserver); ok && n > 0 {
			r.Reserve(n + n/4)
		}
	}
}

// reserveFor makes room in s, which holds nothing, for what o holds: s then takes o's items
// into its own buffer and o, a chunk's, keeps its buffer for the next chunk (see Held.Merge).
func (s *Set) reserveFor(o *Set) {
	for i, p := range s.Parts {
		if r, ok := p.(Reserver); ok && r.Held() == 0 {
			r.Reserve(o.Parts[i].(Reserver).Held())
		}
	}
}

package strag

import (
	"cmp"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// MaxPositions is how many call positions the sample keeps: those whose key hashes lowest,
// which are the same whatever the chunking, the order of merges or the inputs' order.
const MaxPositions = 1024

// MaxArrivals is how many calls one position keeps; a position with more (pointer reuse, a
// communicator of more ranks) is left out whole.
const MaxArrivals = 1024

// unsettled marks an arrival whose step is not known yet.
const unsettled = -1 << 62

// PosKey is what every rank's line of one collective shares: opCount, op, count, datatype
// and the communicator's size. Positions of other communicators with the same key share it
// too; they are told apart by communicator when the report is built.
type PosKey struct {
	OpCount uint64
	Op      parser.Op
	Count   int64
	Dtype   parser.Datatype
	NRanks  int64
}

// hash is a fixed mix of the key (splitmix64 steps), the same on every machine.
func (k PosKey) hash() uint64 {
	h := mix(k.OpCount ^ 0x9e3779b97f4a7c15)
	for i := 0; i < len(k.Op); i++ {
		h = mix(h ^ uint64(k.Op[i]))
	}
	h = mix(h ^ uint64(k.Dtype))
	h = mix(h ^ uint64(k.Count))
	return mix(h ^ uint64(k.NRanks))
}

func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Arrival is one rank's call at a position: its process, communicator pointer and time.
type Arrival struct {
	Host  string
	Pid   int64
	Comm  uint64
	Ns    int64
	Zoned bool
	Step  int64
}

// Position is one sampled call position and the calls seen at it.
type Position struct {
	Hash     uint64
	Key      PosKey
	N        int64     // calls seen, kept or not
	Arrivals []Arrival // nil once N exceeds MaxArrivals
}

// sketch is the bottom-MaxPositions sample of positions.
type sketch struct {
	pos map[PosKey]*Position
	// thr is the greatest (hash, key) kept once the sample is full; a position above it is
	// not taken.
	thr *Position
	// open counts the arrivals added that wait for their step.
	open int
}

func newSketch() sketch { return sketch{pos: make(map[PosKey]*Position)} }

// before orders positions by hash, then key.
func before(a, b *Position) int {
	if c := cmp.Compare(a.Hash, b.Hash); c != 0 {
		return c
	}
	ka, kb := a.Key, b.Key
	return cmp.Or(cmp.Compare(ka.OpCount, kb.OpCount), cmp.Compare(ka.Op, kb.Op), cmp.Compare(ka.Count, kb.Count),
		cmp.Compare(ka.Dtype, kb.Dtype), cmp.Compare(ka.NRanks, kb.NRanks))
}

// slot returns the position of k, made where it is sampled; nil where it is not.
func (s *sketch) slot(k PosKey, h uint64) *Position {
	if p := s.pos[k]; p != nil {
		return p
	}
	np := &Position{Hash: h, Key: k}
	if s.thr != nil && before(np, s.thr) > 0 {
		return nil
	}
	s.pos[k] = np
	if len(s.pos) > MaxPositions {
		delete(s.pos, s.max().Key)
	}
	if len(s.pos) == MaxPositions {
		s.thr = s.max()
	}
	return np
}

// max is the greatest position kept.
func (s *sketch) max() *Position {
	var m *Position
	for _, p := range s.pos {
		if m == nil || before(p, m) > 0 {
			m = p
		}
	}
	return m
}

// add takes calls n at position k (a single arrival, or a merged position's).
func (s *sketch) add(k PosKey, h uint64, n int64, as []Arrival) {
	p := s.slot(k, h)
	if p == nil {
		return
	}
	p.N += n
	if p.N > MaxArrivals {
		p.Arrivals = nil
		return
	}
	p.Arrivals = append(p.Arrivals, as...)
}

// merge adds o's positions.
func (s *sketch) merge(o *sketch) {
	for _, p := range o.sorted() {
		s.add(p.Key, p.Hash, p.N, p.Arrivals)
	}
	s.open += o.open
}

// sorted lists the positions in (hash, key) order, their arrivals in a fixed order.
func (s *sketch) sorted() []*Position {
	out := make([]*Position, 0, len(s.pos))
	for _, p := range s.pos {
		slices.SortFunc(p.Arrivals, byArrival)
		out = append(out, p)
	}
	slices.SortFunc(out, before)
	return out
}

func byArrival(a, b Arrival) int {
	return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.Pid, b.Pid), cmp.Compare(a.Comm, b.Comm),
		cmp.Compare(a.Ns, b.Ns), cmp.Compare(a.Step, b.Step))
}

// settle gives the arrivals waiting for their step that step.
func (s *sketch) settle(step int64) {
	if s.open == 0 {
		return
	}
	s.open = 0
	for _, p := range s.pos {
		for i := range p.Arrivals {
			if p.Arrivals[i].Step == unsettled {
				p.Arrivals[i].Step = step
			}
		}
	}
}

func (s *sketch) reset() {
	clear(s.pos)
	s.thr, s.open = nil, 0
}

package strag

import (
	"cmp"
	"container/heap"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// Budget is how many calls the sample keeps: the positions whose keys hash lowest, as many as
// fit (a position weighs its calls, at most MaxArrivals), which are the same whatever the
// chunking, the order of merges or the inputs' order. At 56 bytes a call, about 15 MiB.
const Budget = 1 << 18

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

// weight is what the position counts against the Budget: it never falls as calls are added.
func (p *Position) weight() int64 { return min(p.N, MaxArrivals) }

// sketch is the sample of positions: every position of the input below cut (in before's
// order), which weigh Budget at most together. A position leaves it only as its greatest,
// when the positions up to it weigh more than Budget here, and so in any input holding
// these calls; so what is kept is the same however the input is cut and merged.
type sketch struct {
	pos    map[PosKey]*Position
	heap   posHeap   // the kept positions, greatest first
	cut    *Position // the least position left out; it and those above it are not taken
	weight int64
	budget int64 // Budget; tests lower it
	// open counts the arrivals added that wait for their step.
	open int
}

func newSketch() sketch { return sketch{pos: make(map[PosKey]*Position), budget: Budget} }

// before orders positions by hash, then key.
func before(a, b *Position) int {
	if c := cmp.Compare(a.Hash, b.Hash); c != 0 {
		return c
	}
	ka, kb := a.Key, b.Key
	return cmp.Or(cmp.Compare(ka.OpCount, kb.OpCount), cmp.Compare(ka.Op, kb.Op), cmp.Compare(ka.Count, kb.Count),
		cmp.Compare(ka.Dtype, kb.Dtype), cmp.Compare(ka.NRanks, kb.NRanks))
}

// slot returns the position of k, made where it is below the cut; nil where it is not.
func (s *sketch) slot(k PosKey, h uint64) *Position {
	if p := s.pos[k]; p != nil {
		return p
	}
	np := &Position{Hash: h, Key: k}
	if s.cut != nil && before(np, s.cut) >= 0 {
		return nil
	}
	s.pos[k] = np
	heap.Push(&s.heap, np)
	return np
}

// takes reports whether a call at k would be kept (so that what it needs copied is copied
// only then).
func (s *sketch) takes(k PosKey) bool {
	return s.pos[k] != nil || s.cut == nil || before(&Position{Hash: k.hash(), Key: k}, s.cut) < 0
}

// cutAt leaves out c and every kept position above it.
func (s *sketch) cutAt(c *Position) {
	if s.cut != nil && before(c, s.cut) >= 0 {
		return
	}
	s.cut = c
	for len(s.heap) > 0 && before(s.heap[0], c) >= 0 {
		s.drop()
	}
}

// drop leaves out the greatest kept position.
func (s *sketch) drop() *Position {
	m := heap.Pop(&s.heap).(*Position)
	delete(s.pos, m.Key)
	s.weight -= m.weight()
	return m
}

// shrink leaves out the greatest positions while the kept ones weigh more than Budget.
func (s *sketch) shrink() {
	for s.weight > s.budget {
		s.cut = s.drop()
	}
}

// add takes calls n at position k (a single arrival, or a merged position's).
func (s *sketch) add(k PosKey, h uint64, n int64, as []Arrival) {
	p := s.slot(k, h)
	if p == nil {
		return
	}
	w := p.weight()
	p.N += n
	s.weight += p.weight() - w
	if p.N > MaxArrivals {
		p.Arrivals = nil
	} else {
		p.Arrivals = append(p.Arrivals, as...)
	}
	s.shrink()
}

// merge adds o's positions, and leaves out what o left out.
func (s *sketch) merge(o *sketch) {
	if o.cut != nil {
		s.cutAt(o.cut)
	}
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
	s.heap = s.heap[:0]
	s.cut, s.weight, s.open = nil, 0, 0
}

// posHeap is a max-heap of positions in before's order.
type posHeap []*Position

func (h posHeap) Len() int           { return len(h) }
func (h posHeap) Less(i, j int) bool { return before(h[i], h[j]) > 0 }
func (h posHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *posHeap) Push(x any)        { *h = append(*h, x.(*Position)) }
func (h *posHeap) Pop() any {
	old := *h
	p := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return p
}

package ranks

import "sort"

// refSeq is a communicator's reference sequence, in blocks of refBlock calls past the first,
// so that it grows without being copied. As one slice, append grew a sequence of 283,000
// calls a quarter at a time: 53 MB of copies, most of them fresh memory, for the 4.5 MB kept,
// which on a log of calls was a quarter of diagnose's page faults beyond report's.
type refSeq struct {
	blocks [][]refCall // the first grows by append up to refBlock; the others are made whole
	n      int64
}

const (
	refBits  = 12
	refBlock = 1 << refBits // 64 KiB of calls
	refMask  = refBlock - 1
)

// seqOf is a sequence holding calls.
func seqOf(calls []refCall) refSeq {
	var s refSeq
	s.extend(calls)
	return s
}

func (s *refSeq) len() int64 { return s.n }

// at is call i, which must be below len.
func (s *refSeq) at(i int64) *refCall { return &s.blocks[i>>refBits][i&refMask] }

// push appends c.
func (s *refSeq) push(c refCall) {
	if k := s.n >> refBits; k < int64(len(s.blocks)) {
		if b := &s.blocks[k]; len(*b) < cap(*b) {
			*b = append(*b, c)
			s.n++
			return
		}
	}
	s.grow(c)
}

// grow appends c where its block is full or not made yet.
func (s *refSeq) grow(c refCall) {
	k := s.n >> refBits
	if k == int64(len(s.blocks)) {
		room := refBlock
		if k == 0 {
			room = minRef // most communicators of a set-up log have a few calls or none
		}
		s.blocks = append(s.blocks, make([]refCall, 0, room))
	}
	s.blocks[k] = append(s.blocks[k], c) // the first block grows by append up to refBlock
	s.n++
}

// minRef is the room a sequence's first block starts with.
const minRef = 16

// extend appends calls.
func (s *refSeq) extend(calls []refCall) {
	for _, c := range calls {
		s.push(c)
	}
}

// from appends o's calls from its i-th on.
func (s *refSeq) from(o *refSeq, i int64) {
	for ; i < o.n; i++ {
		s.push(*o.at(i))
	}
}

// each calls f on every call in order, with its index.
func (s *refSeq) each(f func(i int64, c *refCall)) {
	var i int64
	for _, b := range s.blocks {
		for j := range b {
			f(i, &b[j])
			i++
		}
	}
}

// search is the first index below n whose call f holds for (n where none): f must hold for
// every call past the first it holds for, as sort.Search asks.
func (s *refSeq) search(n int64, f func(c *refCall) bool) int64 {
	return int64(sort.Search(int(n), func(i int) bool { return f(s.at(int64(i))) }))
}

// flat is the calls as one slice: the first block itself where it holds them all (not to be
// changed), else a copy.
func (s *refSeq) flat() []refCall {
	if len(s.blocks) == 1 {
		return s.blocks[0]
	}
	out := make([]refCall, 0, s.n)
	for _, b := range s.blocks {
		out = append(out, b...)
	}
	return out
}

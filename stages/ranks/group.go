package ranks

import (
	"cmp"
	"slices"
)

// GroupKey identifies a communicator across processes: by the commId its Init lines print
// (2.16+), by its parent's key and split color (2.23+ splits print no commId), or, where no
// Init line names it, by its size and the order in which each process first used a
// communicator of that size (Seq > 0, an inference).
type GroupKey struct {
	CommID uint64
	NRanks int64
	Seq    int64
}

// Group is one communicator: its ranks and the reference sequence of calls they are
// compared against (the calls of whichever rank got to each position first).
type Group struct {
	Key    GroupKey
	NRanks int64
	// Evidence says how its ranks were grouped: "commId", "split" or "inferred".
	Evidence Grouping
	Members  []*Member
	// Nodes and LocalRanks are from the 2.20+ layout line ("nRanks 16 nNodes 2 localRanks 8"),
	// 0 where no rank printed it.
	Nodes, LocalRanks int64
	ref               refSeq
	steps             *stepTable // the ids of ref's steps: its Ranks' table
	// opsDown is set once a call's opCount was lower than the one before it in the reference
	// sequence: opCounts then say nothing about position.
	opsDown bool
	aligned bool // realign has placed the ranks by overlap
	// regrouped: regroupInferred has looked at it (a communicator grouped by inference).
	regrouped bool
	// shaky: realign could not place its ranks by a clear overlap (shakyOverlap): where
	// they are in the sequence is not known, so check compares nothing and hang counts no
	// rank behind.
	shaky bool
	// truncated: some of its ranks were counted in an overflow only (an input past the cap
	// of communicators kept in detail), so its detail is not the whole of it.
	truncated bool
}

// Truncated reports whether some of g's ranks are counted in the overflow only.
func (g *Group) Truncated() bool { return g.truncated }

// refCall is one position of the reference sequence: the call's signature id (0: not
// compared), its step's id in the Ranks' stepTable (0: not known) and its opCount.
type refCall struct {
	sig  uint32
	step uint32
	op   uint64
}

// maxPrepend bounds how many positions a rank whose first opCount is lower than any seen can
// add in front of the sequence.
const maxPrepend = 1 << 16

// Inferred reports whether the grouping is a guess (no commId or parent to go by).
func (g *Group) Inferred() bool { return g.Evidence == GroupedInferred }

// MaxCalls is the furthest position any rank got to in the sequence (the most calls any rank
// issued, where every rank's log holds the communicator from its first call).
func (g *Group) MaxCalls() int64 {
	var n int64
	for _, m := range g.Members {
		n = max(n, m.Through())
	}
	return n
}

// addCall appends one call of m at position m.Through() and compares it with the reference.
func (g *Group) addCall(m *Member, sid uint32, s *Sig, step uint32, op uint64) {
	if !m.started {
		m.started, m.callState().firstOp = true, op
		g.place(m, op)
	}
	pos := m.Through()
	m.Calls++
	m.remember(refCall{sid, step, op})
	if pos > g.ref.len() {
		g.fillTo(pos, op)
	}
	if pos == g.ref.len() {
		if n := g.ref.len(); n > 0 && op < g.ref.at(n-1).op {
			g.opsDown = true
		}
		g.ref.push(refCall{sid, step, op})
		return
	}
	r := g.ref.at(pos)
	if r.step == 0 {
		// A call's step is the same on every rank: one whose log has the progress lines
		// (rank 0's file, where each process logs to its own) gives it to the others.
		r.step = step
	}
	if r.op == 0 {
		r.op = op
	}
	switch {
	case r.sig == 0:
		r.sig = sid
	case sid != 0 && r.sig != sid && m.FirstDiv() < 0:
		m.setDiv(pos, *s)
	}
}

// refSig is the id of s where the reference sequence holds s at m's next position (that of
// a rank that got there first), else 0: most calls are the same on every rank, and comparing
// one signature costs a third of finding it in t.
func (g *Group) refSig(m *Member, s *Sig, t *sigTable) uint32 {
	if !m.started {
		return 0 // its position is placed with its first call
	}
	pos := m.Through()
	if pos >= g.ref.len() {
		return 0
	}
	if id := g.ref.at(pos).sig; id != 0 && t.sigs[id] == *s {
		return id
	}
	return 0
}

// place sets where m's first call, with opCount op, falls in the sequence, where opCounts go
// up along it (an excerpt whose ranks start at different calls): at the first position that
// has the same opCount or a higher one; past the last position with an opCount by as many
// calls as op is above it (opCounts go up one a call, or less where a group of calls shares
// one: that is the nearest the call can be); before the first, likewise. A lone call at
// opCount 0 is the communicator's first. At 0 where opCounts say nothing (0 at every one of
// two or more calls so far, or not going up).
func (g *Group) place(m *Member, op uint64) {
	if g.ref.len() == 0 || g.opsDown {
		return
	}
	// The last position with an opCount: positions an excerpt's rank skipped have none yet,
	// and the first call's opCount can be 0.
	last := g.ref.len() - 1
	for last > 0 && g.ref.at(last).op == 0 {
		last--
	}
	switch {
	case g.ref.at(last).op == 0 && (g.ref.len() > 1 || op == 0):
		return // every opCount so far is 0, at two or more calls: they say nothing (yet)
	case op < g.ref.at(0).op:
		g.prepend(int64(min(g.ref.at(0).op-op, maxPrepend)), op)
		m.Start = 0
	case op > g.ref.at(last).op:
		m.Start = last + int64(min(op-g.ref.at(last).op, maxPrepend))
	default:
		m.Start = g.ref.search(last+1, func(c *refCall) bool { return c.op >= op })
	}
}

// fillTo adds the positions before pos that no rank's call has reached yet, where a rank
// placed by opCount starts past the end (its call, at pos, has opCount op): their opCounts
// counted back from op (one a call; never below the last one known), so that the sequence's
// opCounts keep going up for the next rank placed.
func (g *Group) fillTo(pos int64, op uint64) {
	for n := g.ref.len(); n < pos; n++ {
		var guess, prev uint64
		if n > 0 {
			prev = g.ref.at(n - 1).op
		}
		if back := uint64(pos - n); op > back {
			guess = op - back
		}
		g.ref.push(refCall{op: max(guess, prev)})
	}
}

// prepend adds k positions in front of the sequence, with opCounts op, op+1, ..., moving every
// rank's calls along.
func (g *Group) prepend(k int64, op uint64) {
	var front refSeq
	for i := range k {
		front.push(refCall{op: op + uint64(i)})
	}
	front.from(&g.ref, 0)
	g.ref = front
	for _, m := range g.Members {
		if m.started {
			m.Start += k
		}
		m.moveDiv(k)
	}
}

// sortMembers orders the ranks by rank, then by process.
func (g *Group) sortMembers() {
	slices.SortFunc(g.Members, memberOrder)
}

// memberOrder orders ranks by rank, then host, pid and file. The ranks of a communicator
// mostly differ, so the strings are compared only where they do not (cmp.Or would compare
// them all every time: on a communicator of 4096 ranks, a sort took 13M instructions).
func memberOrder(a, b *Member) int {
	if c := cmp.Compare(rankOrder(a), rankOrder(b)); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.Pid, b.Pid), cmp.Compare(a.File, b.File))
}

func rankOrder(m *Member) int64 {
	if m.Rank < 0 {
		return 1 << 62
	}
	return m.Rank
}

// StepOf returns the step of call k of the communicator as any of its ranks knew it, or -1.
func (g *Group) StepOf(k int64) int64 {
	if k < 0 || k >= g.ref.len() {
		return -1
	}
	return g.steps.step(g.ref.at(k).step)
}

// StepBus returns the bus bytes each rank of the communicator moves in each step with a known
// number: the calls at each position of the reference sequence are the same on every rank, so
// this costs no memory per rank.
func (r *Ranks) StepBus(g *Group) map[int64]float64 {
	r.settle()
	out := make(map[int64]float64)
	g.ref.each(func(_ int64, c *refCall) {
		if c.sig == 0 || c.step == 0 {
			return
		}
		var v Volume
		v.add(r.sigs.sig(c.sig), g.NRanks)
		out[r.steps.step(c.step)] += v.BusBytes
	})
	return out
}

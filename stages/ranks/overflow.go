package ranks

import (
	"maps"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// MaxComms is how many communicators Ranks keeps in detail (their ranks and reference call
// sequence). Past it, closed communicators (every rank ended in Destroy or Abort after the
// same calls, none differing) are folded into totals first, then new ones are counted in
// totals only: per-communicator detail is truncated, totals stay exact.
const MaxComms = 1 << 14

// Overflow is what Ranks keeps of the communicators it holds no detail of: their keys (so
// that each is counted once, and its later ranks join it) and the sums of their ranks' calls.
type Overflow struct {
	// ids holds the keys named by a commId (nearly all) by their commId alone, 8 bytes where
	// a GroupKey is 24 (a commId is a 64-bit hash of the communicator's unique id: one commId
	// with two sizes does not happen); keys holds the others.
	ids  map[uint64]struct{}
	keys map[GroupKey]struct{}
	// Closed is how many of them were folded once closed; the others came past the cap.
	Closed int64
	// Ranks is how many of their ranks (a process's comm pointer from Init to Destroy) had lines.
	Ranks int64
	ByOp  map[parser.Op]*Volume
}

// Comms is how many communicators are counted in the overflow.
func (o *Overflow) Comms() int64 { return int64(len(o.ids) + len(o.keys)) }

// Volume is the sum over ops, in op order (a float sum's last bits depend on its order).
func (o *Overflow) Volume() Volume {
	var v Volume
	for _, op := range slices.Sorted(maps.Keys(o.ByOp)) {
		v.merge(*o.ByOp[op])
	}
	return v
}

func (o *Overflow) has(k GroupKey) bool {
	if _, ok := o.ids[k.CommID]; ok && k.CommID != 0 && k.Seq == 0 {
		return true
	}
	_, ok := o.keys[k]
	return ok
}

func (o *Overflow) addKey(k GroupKey) {
	if o.keys == nil {
		o.ids, o.keys, o.ByOp = make(map[uint64]struct{}), make(map[GroupKey]struct{}), make(map[parser.Op]*Volume)
	}
	if k.CommID != 0 && k.Seq == 0 {
		o.ids[k.CommID] = struct{}{}
		return
	}
	o.keys[k] = struct{}{}
}

// eachKey calls f with every key (those of ids with the size unknown, 0).
func (o *Overflow) eachKey(f func(GroupKey)) {
	for id := range o.ids {
		f(GroupKey{CommID: id})
	}
	for k := range o.keys {
		f(k)
	}
}

func (o *Overflow) addVolume(op parser.Op, v Volume) {
	t := o.ByOp[op]
	if t == nil {
		t = &Volume{}
		o.ByOp[op] = t
	}
	t.merge(v)
}

// fold adds g's ranks and calls to the overflow.
func (o *Overflow) fold(g *Group) {
	o.addKey(g.Key)
	o.Ranks += int64(len(g.Members))
	for _, m := range g.Members {
		m.folded = true
		for op, v := range m.ByOp {
			o.addVolume(op, *v)
		}
	}
}

// merge adds p, the overflow of inputs that come after o's, to o.
func (o *Overflow) merge(p *Overflow) {
	p.eachKey(o.addKey)
	o.Closed += p.Closed
	o.Ranks += p.Ranks
	for op, v := range p.ByOp {
		o.addVolume(op, *v)
	}
}

// Overflow returns the communicators kept without detail (none while there are at most
// MaxComms).
func (r *Ranks) Overflow() *Overflow {
	r.settle()
	return &r.over
}

// MaxCommsKept is how many communicators r keeps in detail.
func (r *Ranks) MaxCommsKept() int { return r.maxComms }

// room reports whether a new communicator can be kept in detail: there is room, or a closed
// one was folded to make some.
func (r *Ranks) room() bool {
	for len(r.groups) >= r.maxComms {
		if len(r.closed) == 0 {
			return false
		}
		g := r.closed[0]
		r.closed = r.closed[1:]
		if r.groups[g.Key] == g && closed(g) {
			r.over.fold(g)
			r.over.Closed++
			delete(r.groups, g.Key)
			r.dropFolded(g)
		}
	}
	return true
}

// closed reports whether every rank of g ended after the same calls, none differing: hang and
// check have nothing to say about it.
func closed(g *Group) bool {
	if int64(len(g.Members)) != g.NRanks {
		return false
	}
	for _, m := range g.Members {
		if m.end == endNone || m.FirstDiv() >= 0 || m.Through() != g.Members[0].Through() {
			return false
		}
	}
	return true
}

// ended notes that one of b's ranks ended: where the communicator is now closed, it is the
// next to fold when the cap is reached.
func (r *Ranks) ended(b *binding) {
	if b.g != nil && closed(b.g) {
		r.closed = append(r.closed, b.g)
	}
}

// dropFolded lets the processes of folded g's ranks forget them, once half of a process's
// list is folded (so that a pointer cycled a million times costs no list of a million).
func (r *Ranks) dropFolded(g *Group) {
	for _, m := range g.Members {
		p := r.procs[procKey{m.File, m.Host, m.Pid}]
		if p == nil {
			continue
		}
		if p.folded++; p.folded > len(p.members)/2 {
			p.members = slices.DeleteFunc(p.members, func(m *Member) bool { return m.folded })
			p.folded = 0
		}
	}
}

// overflowCall counts a call of a rank kept without detail.
func (r *Ranks) overflowCall(s Sig, nranks int64) {
	var v Volume
	v.add(s, nranks)
	r.over.addVolume(s.Op, v)
}

// snapshot is o's content, nil where it holds nothing.
func (o *Overflow) snapshot() *OverflowSnapshot {
	if o.Comms() == 0 {
		return nil
	}
	s := &OverflowSnapshot{Closed: o.Closed, Ranks: o.Ranks, ByOp: make(map[parser.Op]Volume, len(o.ByOp))}
	o.eachKey(func(k GroupKey) { s.Keys = append(s.Keys, k) })
	slices.SortFunc(s.Keys, compareKeys)
	for op, v := range o.ByOp {
		s.ByOp[op] = *v
	}
	return s
}

// restore adds the content of s (nil: nothing) to o.
func (o *Overflow) restore(s *OverflowSnapshot) {
	if s == nil {
		return
	}
	for _, k := range s.Keys {
		o.addKey(k)
	}
	o.Closed += s.Closed
	o.Ranks += s.Ranks
	for op, v := range s.ByOp {
		o.addVolume(op, v)
	}
}

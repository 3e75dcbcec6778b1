package ranks

import (
	"maps"
	"slices"
)

// regroupInferred pairs anew the ranks of the communicators grouped by inference where some
// process holds two or more of one size. Inference groups them by the order in which each
// process first used a communicator of that size; an excerpt that starts where one process
// is on its world communicator and another on a split of the same size joins each one's
// world to the other's split: their calls differ, or fall far apart by opCount. Each
// process's ranks go to the communicators whose calls theirs agree with most, and where that
// pairs them otherwise, the communicators are built again from the calls kept for an
// excerpt (Member.hist). Those where a rank's calls were not all kept are left as they are.
func (r *Ranks) regroupInferred() {
	bySize := map[int64][]*Group{}
	for _, g := range r.groups {
		if g.Inferred() && g.Key.CommID == 0 && !g.regrouped {
			bySize[g.NRanks] = append(bySize[g.NRanks], g)
		}
	}
	for _, n := range slices.Sorted(maps.Keys(bySize)) {
		gs := bySize[n]
		slices.SortFunc(gs, func(a, b *Group) int { return compareKeys(a.Key, b.Key) })
		if len(gs) < 2 || !regroupable(gs) {
			continue
		}
		for _, g := range gs {
			g.regrouped = true
		}
		if sets := pairUp(gs); !sameSets(gs, sets) {
			r.rebuildGroups(gs, sets)
		}
	}
}

// sameSets reports whether sets are the communicators gs already are.
func sameSets(gs []*Group, sets [][]*Member) bool {
	if len(gs) != len(sets) {
		return false
	}
	for i, g := range gs {
		if !slices.Equal(g.Members, sets[i]) {
			return false
		}
	}
	return true
}

// regroupable reports whether every rank of gs has all its calls kept, no process holds two
// ranks of one of them (one process that drives several GPUs: left to inference), and they
// are few enough to pair (maxPairings ranks by communicators).
func regroupable(gs []*Group) bool {
	n := 0
	for _, g := range gs {
		n += len(g.Members)
	}
	if n*len(gs) > maxPairings {
		return false
	}
	for _, g := range gs {
		if g.truncated {
			return false
		}
		procs := map[procKey]bool{}
		for _, m := range g.Members {
			if m.rankFrom == rankInit || m.histOver || int64(len(m.kept())) != m.Calls || procs[m.proc()] {
				return false
			}
			procs[m.proc()] = true
		}
	}
	return true
}

// pairUp assigns the ranks of gs to communicators: the ranks of the process that holds the
// most stand for one each; every other process's ranks go where their calls agree most with
// that rank's (one to a communicator; more ranks than communicators start new ones).
func pairUp(gs []*Group) [][]*Member {
	var order []procKey
	byProc := map[procKey][]*Member{}
	for _, g := range gs {
		for _, m := range g.Members {
			k := m.proc()
			if byProc[k] == nil {
				order = append(order, k)
			}
			byProc[k] = append(byProc[k], m)
		}
	}
	first := order[0]
	for _, k := range order {
		if len(byProc[k]) > len(byProc[first]) {
			first = k
		}
	}
	var out [][]*Member
	for _, m := range byProc[first] {
		out = append(out, []*Member{m})
	}
	for _, k := range order {
		if k != first {
			out = assign(out, byProc[k])
		}
	}
	return out
}

// assign puts each of ms (one process's ranks) in the communicator of out whose first rank's
// calls agree most with its own, best pairs first; a rank left over starts a communicator.
func assign(out [][]*Member, ms []*Member) [][]*Member {
	type pair struct {
		m, g, score int
	}
	var pairs []pair
	for i, m := range ms {
		for j, g := range out {
			pairs = append(pairs, pair{i, j, likeness(g[0], m)})
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return b.score - a.score })
	usedM, usedG := map[int]bool{}, map[int]bool{}
	for _, p := range pairs {
		if !usedM[p.m] && !usedG[p.g] {
			usedM[p.m], usedG[p.g] = true, true
			out[p.g] = append(out[p.g], ms[p.m])
		}
	}
	for i, m := range ms {
		if !usedM[i] {
			out = append(out, []*Member{m})
		}
	}
	return out
}

// maxPairings bounds the ranks times communicators of one size that regroupInferred pairs:
// each pair compares up to likenessSpan calls at every offset.
const maxPairings = 1 << 12

// likenessSpan bounds the calls of each rank that likeness compares where opCounts say
// nothing (the last ones: an excerpt's ranks end nearer together than they start).
const likenessSpan = 512

// likeness scores how well b's calls fit as another rank of a's communicator: by opCount
// where both have opCounts above 0, the calls with the same opCount that agree less those
// that differ (no opCount in common: minus how far apart they are); else the most calls that
// agree less those that differ at any offset.
func likeness(a, b *Member) int {
	ah, bh := a.kept(), b.kept()
	if opsKnown(ah) && opsKnown(bh) {
		return likenessByOp(ah, bh)
	}
	x, y := ah[max(0, len(ah)-likenessSpan):], bh[max(0, len(bh)-likenessSpan):]
	best := -len(y)
	for d := -int64(len(y)) + 1; d < int64(len(x)); d++ {
		n := int64(0)
		for i := max(0, -d); i < int64(len(y)) && i+d < int64(len(x)); i++ {
			n++
		}
		agreeing := agreeing(x, y, d)
		best = max(best, 2*agreeing-int(n))
	}
	return best
}

func opsKnown(h []refCall) bool {
	for _, c := range h {
		if c.op != 0 {
			return true
		}
	}
	return false
}

func likenessByOp(a, b []refCall) int {
	at := make(map[uint64]uint32, len(a))
	for _, c := range a {
		if _, ok := at[c.op]; !ok {
			at[c.op] = c.sig
		}
	}
	score, common := 0, false
	for _, c := range b {
		if sig, ok := at[c.op]; ok {
			common = true
			if agree(sig, c.sig) {
				score++
			} else {
				score--
			}
		}
	}
	if common {
		return score
	}
	lo, hi := b[0].op, b[len(b)-1].op
	aLo, aHi := a[0].op, a[len(a)-1].op
	gap := max(int64(lo)-int64(aHi), int64(aLo)-int64(hi), 0)
	return -len(b) - int(min(gap, 1<<20))
}

// rebuildGroups makes gs the communicators sets holds, each built again from its ranks' kept
// calls (placed by opCount, or by overlap where opCounts say nothing: realign), and binds
// their comm pointers to them.
func (r *Ranks) rebuildGroups(gs []*Group, sets [][]*Member) {
	moved := map[*Member]*Group{}
	for i, ms := range sets {
		var g *Group
		if i < len(gs) {
			g = gs[i]
		} else {
			key := GroupKey{NRanks: gs[0].NRanks, Seq: gs[len(gs)-1].Key.Seq + int64(i-len(gs)+1)}
			g = &Group{Key: key, NRanks: key.NRanks, Evidence: GroupedInferred, steps: r.steps, regrouped: true}
			r.groups[key] = g
		}
		g.Members, g.ref, g.opsDown, g.aligned = nil, refSeq{}, false, false
		for _, m := range ms {
			g.replay(r, m)
			moved[m] = g
		}
	}
	for _, p := range r.procs {
		for _, b := range p.bind.all() {
			if g := moved[b.m]; g != nil {
				b.g = g
			}
		}
	}
}

// replay adds m to g with the calls it kept, as though they came again.
func (g *Group) replay(r *Ranks, m *Member) {
	hist := m.kept()
	if m.calls != nil {
		m.calls.hist = nil
	}
	m.Calls, m.Start, m.started, m.g = 0, 0, false, g
	m.noDiv()
	g.Members = append(g.Members, m)
	for _, c := range hist {
		s := r.sigs.sig(c.sig)
		g.addCall(m, c.sig, &s, c.step, c.op)
	}
}

package ranks

import (
	"maps"
	"slices"
)

// Merge adds o, the state of inputs that come after r's, to r. Communicators met in both are
// joined: their reference sequences are compared, and where they first differ, the ranks
// that came with o and agreed with o's reference are marked as diverging there. Communicators
// past r's cap go to its overflow, in key order; one kept in detail here whose ranks o
// counted in its overflow is marked truncated.
func (r *Ranks) Merge(o *Ranks) {
	if r.takeDeferred(o) {
		return
	}
	r.settle()
	o.settle()
	if r.empty() {
		// The first input's state: its tables become r's rather than being copied.
		r.sigs, r.steps = o.sigs, o.steps
	}
	remap := func(id uint32) uint32 {
		if id == 0 || r.sigs == o.sigs {
			return id
		}
		return r.sigs.id(o.sigs.sig(id))
	}
	restep := func(id uint32) uint32 {
		if r.steps == o.steps {
			return id
		}
		return r.steps.id(o.steps.step(id))
	}
	r.mergePGs(o)
	for _, f := range o.files {
		r.putFile(*f) // o's lines come after r's
	}
	for _, g := range r.groups {
		if o.over.has(g.Key) {
			g.truncated = true
		}
	}
	r.over.merge(&o.over)
	joined := make(map[*Group]*Group)
	for _, key := range slices.SortedFunc(maps.Keys(o.groups), compareKeys) {
		og := o.groups[key]
		// o is merged once and let go: its sequences are put in r's ids where they lie.
		ref := &og.ref
		if r.sigs != o.sigs || r.steps != o.steps {
			ref.each(func(_ int64, c *refCall) { *c = refCall{remap(c.sig), restep(c.step), c.op} })
		}
		for _, m := range og.Members {
			hist := m.kept()
			for i := range hist {
				hist[i].sig, hist[i].step = remap(hist[i].sig), restep(hist[i].step)
			}
		}
		og.steps = r.steps
		g := r.groups[key]
		switch {
		case g == nil && (r.over.has(key) || !r.room()):
			r.over.fold(og)
			continue
		case g == nil:
			g = og
			r.groups[key] = og
		default:
			r.join(g, og, ref)
			joined[og] = g
		}
		if closed(g) {
			r.closed = append(r.closed, g)
		}
	}
	if len(r.procs) == 0 && len(joined) == 0 {
		// r had no process (the first input's state, as a run's Result takes it): o's map is
		// taken as it is, with nothing to rebind, rather than built anew at the end of the
		// run, when it is largest (1.8 MB for the 28,000 processes of the 64 MiB init mix).
		r.procs, o.procs = o.procs, r.procs
	}
	for k, p := range o.procs {
		if r.procs[k] != nil {
			continue
		}
		r.procs[k] = p
		// A comm pointer bound to a communicator joined into r's is bound to r's: the joined
		// one, with its reference sequence, is let go.
		for _, b := range p.bind.all() {
			if g := joined[b.g]; g != nil {
				b.g = g
			}
		}
	}
}

// empty reports whether r holds nothing yet: no process, communicator, signature or step.
func (r *Ranks) empty() bool {
	return len(r.procs) == 0 && len(r.groups) == 0 && len(r.pgs) == 0 && r.over.Comms() == 0 &&
		len(r.sigs.sigs) == 1 && len(r.steps.steps) == 1
}

// offset is the position in g's sequence of the first position of og's (whose calls are
// ref), by opCount where both have opCounts that go up; 0 otherwise. Where og starts before
// g, positions are added in front of g's sequence first.
func offset(g, og *Group, ref *refSeq) int64 {
	n := g.ref.len()
	if n == 0 || ref.len() == 0 || g.opsDown || og.opsDown || ref.at(0).op == 0 || g.ref.at(n-1).op == 0 {
		return 0
	}
	op := ref.at(0).op
	if op < g.ref.at(0).op {
		g.prepend(int64(min(g.ref.at(0).op-op, maxPrepend)), op)
		return 0
	}
	return g.ref.search(n, func(c *refCall) bool { return c.op >= op })
}

// join merges the ranks of og (with reference ref, in r's ids) into g.
func (r *Ranks) join(g, og *Group, ref *refSeq) {
	d := offset(g, og, ref)
	for _, m := range og.Members {
		m.g = g
		m.Start += d
		m.moveDiv(d)
	}
	k := int64(-1)
	for i := range ref.len() {
		b := ref.at(i)
		j := i + d
		if j >= g.ref.len() {
			g.ref.from(ref, i)
			break
		}
		a := g.ref.at(j)
		if a.step == 0 {
			a.step = b.step
		}
		switch {
		case a.sig == 0:
			a.sig = b.sig // its step, where known, stays
		case b.sig != 0 && a.sig != b.sig && k < 0:
			k = j
		}
	}
	if k >= 0 {
		for _, m := range og.Members {
			if (m.FirstDiv() < 0 || m.FirstDiv() > k) && m.Start <= k && m.Through() > k {
				m.setDiv(k, r.sigs.sig(ref.at(k-d).sig))
			}
		}
	}
	g.Members = append(g.Members, og.Members...)
	g.opsDown = g.opsDown || og.opsDown
	g.Nodes, g.LocalRanks = max(g.Nodes, og.Nodes), max(g.LocalRanks, og.LocalRanks)
	if g.Evidence == GroupedInferred && og.Evidence != GroupedInferred {
		g.Evidence = og.Evidence
	}
}

package stages

import "sort"

// Merge adds o, the state of inputs that come after r's, to r. Communicators met in both are
// joined: their reference sequences are compared, and where they first differ, the ranks
// that came with o and agreed with o's reference are marked as diverging there.
func (r *Ranks) Merge(o *Ranks) {
	remap := func(id uint32) uint32 {
		if id == 0 {
			return 0
		}
		return r.sigs.id(o.sigs.sig(id))
	}
	r.mergePGs(o)
	joined := map[*Group]*Group{}
	defer r.rebind(o, joined)
	for key, og := range o.groups {
		ref := make([]refCall, len(og.ref))
		for i, c := range og.ref {
			ref[i] = refCall{remap(c.sig), c.step, c.op}
		}
		for _, m := range og.Members {
			for i := range m.hist {
				m.hist[i].sig = remap(m.hist[i].sig)
			}
		}
		g := r.groups[key]
		if g == nil {
			og.ref = ref
			r.groups[key] = og
			continue
		}
		r.join(g, og, ref)
		joined[og] = g
	}
}

// rebind takes o's processes, their bindings to groups joined into r's (joined) now bound to
// those: a binding to a joined group would keep its reference sequence alive, one per input.
func (r *Ranks) rebind(o *Ranks, joined map[*Group]*Group) {
	for k, p := range o.procs {
		if r.procs[k] != nil {
			continue
		}
		r.procs[k] = p
		for _, b := range p.bind {
			if g, ok := joined[b.g]; ok {
				b.g = g
			}
		}
	}
}

// offset is the position in g's sequence of the first position of og's (whose calls are
// ref), by opCount where both have opCounts that go up; 0 otherwise. Where og starts before
// g, positions are added in front of g's sequence first.
func offset(g, og *Group, ref []refCall) int64 {
	n := len(g.ref)
	if n == 0 || len(ref) == 0 || g.opsDown || og.opsDown || ref[0].op == 0 || g.ref[n-1].op == 0 {
		return 0
	}
	op := ref[0].op
	if op < g.ref[0].op {
		g.prepend(int64(min(g.ref[0].op-op, maxPrepend)), op)
		return 0
	}
	return int64(sort.Search(n, func(i int) bool { return g.ref[i].op >= op }))
}

// join merges the ranks of og (with reference ref, in r's ids) into g.
func (r *Ranks) join(g, og *Group, ref []refCall) {
	d := offset(g, og, ref)
	for _, m := range og.Members {
		m.Start += d
		if m.FirstDiv >= 0 {
			m.FirstDiv += d
		}
	}
	k := int64(-1)
	for i, b := range ref {
		j := int64(i) + d
		if j >= int64(len(g.ref)) {
			g.ref = append(g.ref, ref[i:]...)
			break
		}
		a := &g.ref[j]
		if a.step < 0 {
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
			if (m.FirstDiv < 0 || m.FirstDiv > k) && m.Start <= k && m.Through() > k {
				m.FirstDiv, m.DivSig = k, r.sigs.sig(ref[k-d].sig)
			}
		}
	}
	g.Members = append(g.Members, og.Members...)
	g.opsDown = g.opsDown || og.opsDown
	g.Nodes, g.LocalRanks = max(g.Nodes, og.Nodes), max(g.LocalRanks, og.LocalRanks)
	if g.Evidence == "inferred" && og.Evidence != "inferred" {
		g.Evidence = og.Evidence
	}
}

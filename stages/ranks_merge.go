package stages

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
	for k, p := range o.procs {
		if r.procs[k] == nil {
			r.procs[k] = p
		}
	}
	for key, og := range o.groups {
		ref := make([]refCall, len(og.ref))
		for i, c := range og.ref {
			ref[i] = refCall{remap(c.sig), c.step}
		}
		g := r.groups[key]
		if g == nil {
			og.ref = ref
			r.groups[key] = og
			continue
		}
		r.join(g, og, ref)
	}
}

// join merges the ranks of og (with reference ref, in r's ids) into g.
func (r *Ranks) join(g, og *Group, ref []refCall) {
	n := min(len(g.ref), len(ref))
	k := -1
	for i := 0; i < n; i++ {
		a, b := &g.ref[i], ref[i]
		if a.step < 0 {
			a.step = b.step
		}
		switch {
		case a.sig == 0:
			a.sig = b.sig // its step, where known, stays
		case b.sig != 0 && a.sig != b.sig && k < 0:
			k = i
		}
	}
	if k >= 0 {
		for _, m := range og.Members {
			if (m.FirstDiv < 0 || m.FirstDiv > int64(k)) && m.Calls > int64(k) {
				m.FirstDiv, m.DivSig = int64(k), r.sigs.sig(ref[k].sig)
			}
		}
	}
	if len(ref) > len(g.ref) {
		g.ref = append(g.ref, ref[len(g.ref):]...)
	}
	g.Members = append(g.Members, og.Members...)
	if g.Evidence == "inferred" && og.Evidence != "inferred" {
		g.Evidence = og.Evidence
	}
}

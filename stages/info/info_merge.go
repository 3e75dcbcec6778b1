package info

// Merge adds the Info of the lines that follow in's, as if one Info had read them all.
func (in *Info) Merge(o *Info) {
	if o == nil {
		return
	}
	in.notListed += o.notListed
	for _, key := range o.commOrder {
		oc := o.comms[key]
		if c := in.comm(key); c != nil {
			c.merge(oc)
		} else {
			in.notListed += oc.inits
		}
	}
	for _, k := range o.procOrder {
		if in.notListed > 0 {
			o.procs[k].forgetComms(in.comms) // so that a process's set stays within the cap
		}
		if p := in.procs[k]; p != nil {
			p.merge(o.procs[k])
			continue
		}
		in.procs[k] = o.procs[k]
		in.procOrder = append(in.procOrder, k)
	}
	for _, b := range o.bare {
		in.addBare(b)
	}
	in.mergeThreads(o)
	for k, n := range o.tuning {
		in.addTuneKey(k, n)
	}
	in.warns.merge(&o.warns)
	in.chains.merge(&o.chains)
	for _, t := range o.timings {
		if len(in.timings) < maxTimings {
			in.timings = append(in.timings, t)
		}
	}
	c := &in.counts
	oc := o.counts
	c.NCCL, c.Coll, c.Init, c.Net, c.Tuning, c.Env = c.NCCL+oc.NCCL, c.Coll+oc.Coll, c.Init+oc.Init, c.Net+oc.Net, c.Tuning+oc.Tuning, c.Env+oc.Env
}

// eachEvidence calls f on every place in keeps a line's location.
func (in *Info) eachEvidence(f func(*Evidence)) {
	for _, p := range in.procs {
		f(&p.first)
		for _, fv := range p.facts.all() {
			f(&fv.ev)
		}
	}
	for i := range in.bare {
		f(&in.bare[i].Evidence)
	}
	for i := range in.early {
		f(&in.early[i].ev)
	}
	for i := range in.unsure {
		f(&in.unsure[i].ev)
	}
	in.pending.each(func(c *commFact) { f(&c.ev) })
	for i := range in.timings {
		f(&in.timings[i].Evidence)
	}
	for _, g := range in.warns.groups {
		f(&g.first)
		f(&g.last)
	}
	if in.warns.first != nil {
		f(&in.warns.first.Evidence)
	}
	in.chains.eachEvidence(f)
}

func (s *chainState) eachEvidence(f func(*Evidence)) {
	for _, m := range []map[threadKey]*errChain{s.open, s.lead} {
		for _, c := range m {
			f(&c.warnEv)
			f(&c.rootEv)
		}
	}
	for _, g := range s.groups {
		f(&g.ev)
	}
}

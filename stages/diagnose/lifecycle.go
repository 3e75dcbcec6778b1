package diagnose

import "strings"

// aborts files the processes that aborted a communicator while others never ended theirs:
// evidence of a fault only where another line proves one (an excerpt's end can cut a clean
// shutdown between ranks). A process's own error line that names no process (a traceback
// printed without a launcher prefix) is given to the one process that aborted alone.
func (b *builder) aborts() {
	var aborted []*proc
	all, ended := 0, 0
	marks := map[*proc]*Mark{}
	for _, p := range b.commProcs() {
		all++
		a, d := b.ends(p)
		if a != nil || d {
			ended++
		}
		if a != nil {
			aborted = append(aborted, p)
			marks[p] = a
		}
	}
	if len(aborted) == 0 || ended == all {
		return
	}
	for _, p := range aborted {
		c := newCand(KindAbort, false)
		c.mark(marks[p], "Abort COMPLETE", p)
		c.order = 1 << 61
		b.ownAdd(p, c)
	}
	if len(aborted) == 1 && len(b.loose) > 0 {
		for _, c := range b.loose {
			c.procs = nil
			b.ownAdd(aborted[0], c)
		}
		b.loose = nil
	}
}

// commProcs lists the processes with communicator lines, in input order.
func (b *builder) commProcs() []*proc {
	b.indexComms()
	return b.cprocs
}

// procComms are the communicators of each process that has any, in input order: one list,
// grouped by process, process n's from ends[n-1] to ends[n] (n, the process's place in the
// procIndex, from 1). A map of a list for each process took a lookup and an append (the
// first of them an allocation) a communicator, and allocations for each of thousands of
// processes (a 4,096-rank init), once more than the communicators' own.
type procComms struct {
	comms []*commState
	ends  []int32
}

// of is p's communicators, nil where it has none.
func (c *procComms) of(p *proc) []*commState {
	if p == nil || p.n <= 0 || p.n >= len(c.ends) {
		return nil
	}
	return c.comms[c.ends[p.n-1]:c.ends[p.n]]
}

// indexComms lists each process's communicators, once.
func (b *builder) indexComms() {
	if b.byProc.ends != nil {
		return
	}
	ps := b.x.commProcs // newProcIndex's, of the same communicators
	if len(ps) != len(b.e.Comms) {
		ps = make([]*proc, len(b.e.Comms))
		for i, c := range b.e.Comms {
			if i < len(b.x.commProcs) {
				ps[i] = b.x.commProcs[i]
			} else {
				ps[i] = b.x.get(c.Host, c.Pid)
			}
		}
	}
	// A counting sort by process: each process's count, then where its list ends.
	ends := make([]int32, len(b.x.order)+1)
	for _, p := range ps {
		if ends[p.n] == 0 {
			b.cprocs = append(b.cprocs, p)
		}
		ends[p.n]++
	}
	for n := 1; n < len(ends); n++ {
		ends[n] += ends[n-1]
	}
	comms := make([]*commState, len(ps))
	for i := len(ps) - 1; i >= 0; i-- { // backwards: each list fills from its end
		n := ps[i].n
		ends[n]--
		comms[ends[n]] = b.e.Comms[i]
	}
	// ends[n] is now where process n's list starts, which is where n-1's ends.
	b.byProc = procComms{comms: comms, ends: append(ends[1:], int32(len(comms)))}
}

// commsOf is p's communicators, in input order.
func (b *builder) commsOf(p *proc) []*commState {
	b.indexComms()
	return b.byProc.of(p)
}

// ends is p's first Abort COMPLETE, and whether it destroyed a communicator.
func (b *builder) ends(p *proc) (*Mark, bool) {
	var a *Mark
	d := false
	for _, c := range b.commsOf(p) {
		if a == nil {
			a = c.Abort
		}
		d = d || c.Destroy != nil
	}
	return a, d
}

// pendingInit is p's first communicator whose Init START has no Init COMPLETE (nor an end).
func (b *builder) pendingInit(p *proc) *commState {
	for _, c := range b.commsOf(p) {
		if c.Start != nil && c.Complete == nil && c.Abort == nil && c.Destroy == nil {
			return c
		}
	}
	return nil
}

// initFailures files the processes whose init never completed and which printed an error:
// one shared finding where that is every process that started one, naming the most common
// error as the cause. A WARN that proves nothing alone (a notice: no error chain followed it,
// as RAS's `Call to bind failed` where NCCL runs on without the RAS client socket) is not an
// error here: a log cut before Init COMPLETE shows every init pending.
func (b *builder) initFailures() {
	procs := b.commProcs()
	var failed []*proc
	pending := 0
	for _, p := range procs {
		if b.pendingInit(p) == nil {
			continue
		}
		pending++
		if c := b.own[p]; (c != nil && c.fault) || b.hasConsequence(p) {
			failed = append(failed, p)
		}
	}
	if len(failed) == 0 {
		return
	}
	if len(failed) >= 2 && pending == len(procs) && !b.ownCrash(failed) {
		var all []*proc
		for _, p := range procs {
			if b.pendingInit(p) != nil {
				all = append(all, p)
			}
		}
		b.sharedInit(all)
		return
	}
	for _, p := range failed {
		c := newCand(KindInitFailure, true)
		c.mark(b.pendingInit(p).Start, "Init START without Init COMPLETE", p)
		b.ownAdd(p, c)
	}
}

func (b *builder) hasConsequence(p *proc) bool {
	for _, c := range b.conseq {
		for _, q := range c.procs {
			if q == p {
				return true
			}
		}
	}
	return false
}

// ownCrash reports whether one of ps failed by its own error (not the init's).
func (b *builder) ownCrash(ps []*proc) bool {
	for _, p := range ps {
		if c := b.own[p]; c != nil && kindPrio[c.kind] == 0 && !testResultsOnly(c) {
			return true
		}
	}
	return false
}

// sharedInit makes the one finding of an init that failed on every process.
func (b *builder) sharedInit(ps []*proc) {
	c := newCand(KindInitFailure, true)
	c.shared = true
	texts := map[string]int{}
	best := ""
	for _, p := range ps {
		if o := b.own[p]; o != nil {
			c.absorb(o)
			for _, it := range o.items {
				texts[it.Text]++
				if texts[it.Text] > texts[best] {
					best = it.Text
				}
			}
			delete(b.own, p)
		}
		st := b.pendingInit(p)
		c.mark(st.Start, "Init START without Init COMPLETE", p)
		c.procs = appendProc(c.procs, p)
	}
	c.kind = KindInitFailure
	c.summary = "Communicator init failed on every process (" + plural(len(ps), "process", "processes") + ")"
	if best != "" {
		c.summary += " with the same error: " + short(best)
		if strings.Contains(best, "ibv_") || strings.Contains(best, "NET/") {
			c.summary += " (a network set-up step)"
		}
	}
	c.summary += "."
	b.owners = slicesDelete(b.owners, b.own)
	b.loose = append(b.loose, c)
}

func appendProc(ps []*proc, p *proc) []*proc {
	for _, q := range ps {
		if q == p {
			return ps
		}
	}
	return append(ps, p)
}

// slicesDelete keeps the owners that still own a finding.
func slicesDelete(owners []*proc, own map[*proc]*cand) []*proc {
	out := owners[:0]
	for _, p := range owners {
		if own[p] != nil {
			out = append(out, p)
		}
	}
	return out
}

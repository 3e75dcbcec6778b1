package info

// threadComm is the communicator a thread's set-up lines belong to.
type threadComm struct {
	comm string
	// started: the thread prints Init START (2.18.3+), so the lines after it, and the lazy
	// connections after its COMPLETE, belong to that communicator. Before 2.18.3 there is no
	// START, and a communicator's set-up lines come before its Init COMPLETE.
	started bool
}

// bindInit binds th to the communicator key of an Init line.
func (in *Info) bindInit(th threadKey, key string, start bool) {
	st, seen := in.threads[th]
	started := start || seen && st.started
	if !start && !started {
		if _, ok := in.firstComplete[th]; !ok && !seen {
			in.firstComplete[th] = key
			in.deferPending(th)
		} else {
			in.holdPending(th, key)
		}
	}
	in.threads[th] = threadComm{comm: key, started: started}
}

// commLine applies f to its thread's communicator, or keeps it until the Init COMPLETE that
// ends the thread's set-up block (before 2.18.3), or for Merge when this Info has not seen
// the thread's Init line.
func (in *Info) commLine(f commFact) {
	st, ok := in.threads[f.thread]
	if ok && st.started {
		in.applyComm(st.comm, &f)
		return
	}
	if ok {
		f.after = st.comm
	}
	in.pending.push(f)
}

// holdPending moves th's pending lines to unsure: the Init COMPLETE key follows them.
func (in *Info) holdPending(th threadKey, key string) {
	in.pending.take(th, func(f *commFact) {
		f.next = key
		in.unsure = append(in.unsure, *f)
	})
}

// place gives a line another Info kept for Merge (its unsure and pending lines, which
// follow in's) to its communicator, where in tells which, as mergeEarly does for the lines
// before a thread's first COMPLETE: the thread's latest Init before it if in saw the thread
// print START, else the COMPLETE that followed it. Where in never saw the thread (in need
// not start at the input's start: the lines of a step are merged before the step's Set
// joins the total), or the line has no COMPLETE after it yet, the line waits.
func (in *Info) place(f commFact) {
	st, ok := in.threads[f.thread]
	switch {
	case ok && st.started && f.after != "":
		in.applyComm(f.after, &f)
	case ok && st.started:
		in.applyComm(st.comm, &f)
	case ok && f.next != "":
		in.applyComm(f.next, &f)
	case f.next != "":
		in.unsure = append(in.unsure, f)
	default:
		if ok && f.after == "" {
			f.after = st.comm
		}
		in.pending.push(f)
	}
}

// resolvePending gives th's pending lines to the communicator key.
func (in *Info) resolvePending(th threadKey, key string) {
	in.pending.take(th, func(f *commFact) { in.applyComm(key, f) })
}

// deferPending moves th's pending lines to early (see Info.early).
func (in *Info) deferPending(th threadKey) {
	in.pending.take(th, func(f *commFact) { in.early = append(in.early, *f) })
}

// mergeEarly places o's early lines: on the communicator in left their thread in where it
// printed Init START, else on the COMPLETE that ended them in o; where in never saw the
// thread either, they stay early.
func (in *Info) mergeEarly(o *Info) {
	for i := range o.early {
		f := &o.early[i]
		st, seen := in.threads[f.thread]
		switch {
		case seen && st.started:
			in.applyComm(st.comm, f)
		case seen:
			in.applyComm(o.firstComplete[f.thread], f)
		default:
			in.early = append(in.early, *f)
		}
	}
}

// mergeThreads takes o's thread bindings and pending lines; o's lines follow in's.
func (in *Info) mergeThreads(o *Info) {
	in.mergeEarly(o)
	// in's pending lines end at the first COMPLETE o saw on their thread...
	for _, th := range sortedKeysOf(o.firstComplete) {
		if st, ok := in.threads[th]; !ok || !st.started {
			in.resolvePending(th, o.firstComplete[th])
		}
		if _, ok := in.firstComplete[th]; !ok {
			if _, bound := in.threads[th]; !bound {
				in.firstComplete[th] = o.firstComplete[th]
			}
		}
	}
	// ...and o's, if their thread printed START, to its latest Init (see place).
	for _, f := range o.unsure {
		in.place(f)
	}
	o.pending.each(func(f *commFact) { in.place(*f) })
	for th, st := range o.threads {
		if prev, ok := in.threads[th]; ok && prev.started {
			st.started = true
		}
		in.threads[th] = st
	}
}

// settleThreads gives the lines still pending at the end to their thread's last
// communicator (lazy connections after a COMPLETE before 2.18.3), or to "(unknown)".
func (in *Info) settleThreads() {
	for i := range in.early {
		in.applyComm(in.firstComplete[in.early[i].thread], &in.early[i])
	}
	in.early = nil
	for i := range in.unsure { // no START before: each belongs to the COMPLETE after it
		in.applyComm(in.unsure[i].next, &in.unsure[i])
	}
	in.unsure = nil
	in.pending.each(func(f *commFact) {
		key := "(unknown)"
		if st, ok := in.threads[f.thread]; ok {
			key = st.comm
		}
		in.applyComm(key, f)
	})
	in.pending = pendingList{}
}

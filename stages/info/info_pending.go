package info

// pendingList holds communicator lines whose communicator is not known yet, in input order,
// with each thread's positions among them. An Init line takes its thread's lines out: a
// scan of the whole list for each one made a log of communicator set-up quadratic (a chunk
// of a 4,096-rank job's init holds a thousand pending lines of other threads for each of
// its thousands of Init lines, and half of those threads have none).
type pendingList struct {
	facts []commFact
	taken []bool // facts[i] was taken out
	// at lists the positions of each thread's lines not taken yet, in order.
	at    map[threadKey][]int32
	nTook int
}

// push keeps f after the lines kept so far.
func (l *pendingList) push(f commFact) {
	if l.at == nil {
		l.at = map[threadKey][]int32{}
	}
	l.at[f.thread] = append(l.at[f.thread], int32(len(l.facts)))
	l.facts = append(l.facts, f)
	l.taken = append(l.taken, false)
}

// take calls fn on th's lines in order and takes them out of the list.
func (l *pendingList) take(th threadKey, fn func(*commFact)) {
	at, ok := l.at[th]
	if !ok {
		return
	}
	delete(l.at, th)
	for _, i := range at {
		fn(&l.facts[i])
		l.taken[i] = true
	}
	l.nTook += len(at)
	if l.nTook > len(l.facts)/2 {
		l.compact()
	}
}

// compact drops the lines taken out, and renumbers the positions.
func (l *pendingList) compact() {
	n := 0
	clear(l.at)
	for i := range l.facts {
		if l.taken[i] {
			continue
		}
		l.facts[n] = l.facts[i]
		l.at[l.facts[n].thread] = append(l.at[l.facts[n].thread], int32(n))
		n++
	}
	clear(l.facts[n:]) // their strings
	l.facts, l.taken, l.nTook = l.facts[:n], l.taken[:n], 0
	clear(l.taken)
}

// each calls fn on the lines in the list, in order.
func (l *pendingList) each(fn func(*commFact)) {
	for i := range l.facts {
		if !l.taken[i] {
			fn(&l.facts[i])
		}
	}
}

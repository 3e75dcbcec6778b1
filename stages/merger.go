package stages

// Merger puts the chunks of one input back in order, settles the stretches whose step
// depends on other chunks, and merges everything into Total. It is the one place where the
// order of chunks matters, and the one place where line numbers become absolute (Anchor).
type Merger struct {
	plan  *Plan
	file  string
	out   Out
	Total *Set  // the input's result so far
	base  int64 // lines in the chunks before the current one
	off   int64 // bytes in the chunks before the current one

	carry   int64 // BoundaryStart: step of the last marker so far, -1 before the first
	pending *Set  // BoundaryEnd: the lines after the last marker, waiting for the next
	wait    waiting
}

// NewMerger starts merging the chunks of the input named file; what the stages stream goes
// to out. Without Bound, a stretch that waits for its step is held in memory however long.
func NewMerger(plan *Plan, file string, out Out) *Merger {
	m := &Merger{plan: plan, file: file, out: out, Total: NewSet(plan), carry: -1, pending: plan.sets.get(plan)}
	m.wait = newWaiting(m.pending)
	return m
}

// Add merges the next chunk, whose lines were read from data.
func (m *Merger) Add(c *Chunk, data []byte) error {
	if m.plan.StopAtMalformed {
		if p, ok := firstProblem(c); ok {
			p.File, p.Line = m.file, p.Line+m.base
			return &MalformedError{p}
		}
	}
	o := Origin{File: m.file, Base: m.base, Data: data}
	off := m.off
	m.base += c.LineCount()
	m.off += int64(len(data))
	if m.plan.Boundary == BoundaryStart {
		return m.addStart(c, o)
	}
	return m.addEnd(c, o, off)
}

func (m *Merger) addStart(c *Chunk, o Origin) error {
	if c.Open != nil {
		c.Open.Settle(m.carry, m.plan.Selects(m.carry))
		if err := m.emit(c.Open, o); err != nil {
			return err
		}
	}
	if len(c.Markers) > 0 {
		m.carry = c.Markers[len(c.Markers)-1]
	}
	return m.emit(c.Sel, o)
}

// addEnd merges a chunk of input bytes [off, off+len(o.Data)).
func (m *Merger) addEnd(c *Chunk, o Origin, off int64) error {
	if m.wait.ahead.known {
		settled, err := m.addAhead(c, o, off)
		if settled || err != nil {
			return err
		}
	}
	if len(c.Markers) > 0 {
		if err := m.settle(c.Markers[0]); err != nil {
			return err
		}
		if err := m.emit(c.Sel, o); err != nil {
			return err
		}
	}
	return m.hold(c, o)
}

// addAhead settles a chunk that ends before the marker the lookahead found with that
// marker's step, at once (settled true). The chunk that holds the marker goes the usual way.
func (m *Merger) addAhead(c *Chunk, o Origin, off int64) (settled bool, err error) {
	a := &m.wait.ahead
	end := off + int64(len(o.Data))
	if len(c.Markers) == 0 {
		if end > a.at {
			return false, a.mismatch(m.file)
		}
		c.Open.Settle(a.step, m.plan.Selects(a.step))
		return true, m.emit(c.Open, o)
	}
	if !a.found || c.Markers[0] != a.step || a.at < off || a.at >= end {
		return false, a.mismatch(m.file)
	}
	a.known = false
	return false, nil
}

// emit merges a settled stretch into the total and commits it.
func (m *Merger) emit(s *Set, o Origin) error {
	s.Anchor(o)
	return m.Total.MergeCommit(s, m.out)
}

// hold keeps a chunk's open tail until the marker that ends its step arrives. What can be
// written before its step is known (every line is selected) is written now. Past the cap,
// the waiting stretch is bounded (see waiting).
func (m *Merger) hold(c *Chunk, o Origin) error {
	s := c.Open
	if s == nil {
		return nil
	}
	if m.wait.fresh {
		m.wait.fresh, m.wait.line = false, o.Base+c.TailLines
	}
	if err := m.wait.take(o.Data[c.TailOff:], s); err != nil {
		return err
	}
	o.Held = true
	s.Anchor(o)
	m.pending.Merge(s)
	if err := m.passStepFree(); err != nil {
		return err
	}
	if err := m.pending.Commit(m.out); err != nil {
		return err
	}
	if !m.wait.over() || m.wait.Ahead != nil && m.Waiting().Items == 0 {
		return nil // nothing is held that a reading ahead would settle
	}
	return m.bound()
}

// passStepFree hands what the waiting StepFree Partials hold to the Total where none of it
// needs its step. Not where the stretch's bytes may be spilled: they would be read again.
func (m *Merger) passStepFree() error {
	if m.wait.Ahead == nil {
		return nil
	}
	for _, i := range m.wait.parts {
		p := m.pending.Parts[i]
		if sf, ok := p.(StepFree); !ok || sf.Held() == 0 || sf.NeedsStep() {
			continue
		}
		p.Settle(-1, true)
		if err := commitPart(m.Total.Parts[i], p, m.out); err != nil {
			return err
		}
	}
	return nil
}

// commitPart merges o into t and commits, as MergeCommit does for one Partial, and empties o.
func commitPart(t, o Partial, out Out) error {
	if f, ok := t.(Folder); ok && f.CanFold(o) {
		return f.Fold(o, out)
	}
	t.Merge(o)
	o.Reset()
	if c, ok := t.(Committer); ok {
		return c.Commit(out)
	}
	return nil
}

// bound settles the waiting stretch now where the input tells the step of its end, or moves
// what it holds out of memory.
func (m *Merger) bound() error {
	if m.wait.Ahead != nil {
		step, err := m.wait.lookahead(m.off)
		if err != nil {
			return err
		}
		return m.settle(step)
	}
	return m.wait.spill(m.pending)
}

// settle gives the waiting lines the step of the marker that ended them.
func (m *Merger) settle(step int64) error {
	if err := m.replay(step); err != nil {
		return err
	}
	m.pending.Settle(step, m.plan.Selects(step))
	err := m.Total.MergeCommit(m.pending, m.out)
	m.pending.Reset()
	m.wait.ended()
	return err
}

// Finish settles what is still held: lines after the last marker belong to no step. The
// emptied waiting Set goes to the plan, for the next input's Merger.
func (m *Merger) Finish() error {
	if m.plan.Boundary == BoundaryEnd {
		if err := m.settle(-1); err != nil {
			return err
		}
	}
	m.pending.Reset()
	m.plan.sets.put(m.pending)
	m.pending = nil
	return nil
}

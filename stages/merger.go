package stages

// maxHeld bounds what Holders hold while waiting for the marker that ends their step
// (BoundaryEnd), in calls or events. Past it, what they hold is settled with no step: memory
// stays bounded on logs with few or no markers.
const maxHeld = 1 << 14

// Merger puts the chunks of one input back in order, settles the stretches whose step
// depends on other chunks, and merges everything into Total. It is the one place where the
// order of chunks matters, and the one place where line numbers become absolute (Anchor).
type Merger struct {
	plan  *Plan
	file  string
	out   Out
	Total *Set  // the input's result so far
	base  int64 // lines in the chunks before the current one

	carry   int64 // BoundaryStart: step of the last marker so far, -1 before the first
	pending *Set  // BoundaryEnd: the lines after the last marker, waiting for the next
}

// NewMerger starts merging the chunks of the input named file; what the stages stream goes
// to out.
func NewMerger(plan *Plan, file string, out Out) *Merger {
	return &Merger{plan: plan, file: file, out: out, Total: NewSet(plan), carry: -1, pending: NewSet(plan)}
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
	m.base += c.LineCount()
	if m.plan.Boundary == BoundaryStart {
		return m.addStart(c, o)
	}
	return m.addEnd(c, o)
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

func (m *Merger) addEnd(c *Chunk, o Origin) error {
	if len(c.Markers) > 0 {
		if err := m.settle(c.Markers[0]); err != nil {
			return err
		}
		if err := m.emit(c.Sel, o); err != nil {
			return err
		}
	}
	return m.hold(c.Open, o)
}

// emit merges a settled stretch into the total and commits it.
func (m *Merger) emit(s *Set, o Origin) error {
	s.Anchor(o)
	m.Total.Merge(s)
	return m.Total.Commit(m.out)
}

// hold keeps an open tail until the marker that ends its step arrives. What can be written
// before its step is known (every line is selected) is written now.
func (m *Merger) hold(s *Set, o Origin) error {
	if s == nil {
		return nil
	}
	o.Held = true
	s.Anchor(o)
	m.pending.Merge(s)
	if err := m.pending.Commit(m.out); err != nil {
		return err
	}
	if m.pending.Held() <= maxHeld {
		return nil
	}
	// Too far from the next marker to wait for it: what the Holders hold keeps no step.
	sel := m.plan.Selects(-1)
	for i, p := range m.pending.Parts {
		if h, ok := p.(Holder); ok && h.Held() > 0 {
			p.Settle(-1, sel)
			m.Total.Parts[i].Merge(p)
			p.Reset()
		}
	}
	return m.Total.Commit(m.out)
}

// settle gives the held lines the step of the marker that ended them.
func (m *Merger) settle(step int64) error {
	m.pending.Settle(step, m.plan.Selects(step))
	m.Total.Merge(m.pending)
	m.pending.Reset()
	return m.Total.Commit(m.out)
}

// Finish settles what is still held: lines after the last marker belong to no step.
func (m *Merger) Finish() error {
	if m.plan.Boundary == BoundaryEnd {
		return m.settle(-1)
	}
	return nil
}

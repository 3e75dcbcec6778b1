package stages

// Out receives what a run selects, in input order: whole lines (split) and calls.
type Out interface {
	Lines(b []byte) error
	Call(c *Call) error
}

// maxPendingCalls bounds the calls held while waiting for the marker that ends their step
// (BoundaryEnd) when no steps are selected. Past it, the calls of that stretch are passed on
// with no step: memory stays bounded on logs with few or no markers. With --steps the calls
// are held until their step is known, which bounds them by the size of a step.
const maxPendingCalls = 1 << 20

// Merger puts the chunks of one input back in order, settles their open pieces and merges
// their results. It is the only place where the order of chunks matters.
type Merger struct {
	cfg   *Config
	File  string
	Lines Lines
	Steps *Steps
	Agg   *Agg
	Ranks *Ranks
	Info  *Info
	base  int64 // lines in the chunks before the current one

	carry       int64  // BoundaryStart: step of the last marker so far, -1 before the first
	pending     *piece // BoundaryEnd: the lines after the last marker, waiting for the next
	pendingData []byte // their bytes, for split
	overflow    bool   // the pending calls were passed on with no step
}

// NewMerger starts merging the chunks of the input named file.
func NewMerger(cfg *Config, file string) *Merger {
	m := &Merger{cfg: cfg, File: file, Steps: NewSteps(), carry: -1, pending: newPiece(cfg.Needs)}
	if cfg.Needs&NeedAgg != 0 {
		m.Agg = NewAgg()
	}
	if cfg.Needs&NeedRanks != 0 {
		m.Ranks = NewRanks(cfg)
	}
	if cfg.Needs&NeedInfo != 0 {
		m.Info = NewInfo()
	}
	return m
}

// Add merges the next chunk, whose lines were read from data, and passes its selected lines
// and calls to out.
func (m *Merger) Add(c *Chunk, data []byte, out Out) error {
	m.addLines(&c.Lines)
	m.Steps.Merge(c.Steps)
	if m.Info != nil {
		c.Info.Rebase(m.File, m.base)
		m.Info.Merge(c.Info)
	}
	base := m.base
	m.base += c.LineCount()
	if m.cfg.Boundary == BoundaryStart {
		return m.addStart(c, data, base, out)
	}
	return m.addEnd(c, data, base, out)
}

func (m *Merger) addLines(l *Lines) {
	for i := range l.Problems {
		l.Problems[i].File = m.File
		l.Problems[i].Line += m.base
	}
	m.Lines.Merge(l)
}

func (m *Merger) addStart(c *Chunk, data []byte, base int64, out Out) error {
	if c.Open != nil {
		c.Open.setStep(m.carry)
		if !m.cfg.Selects(m.carry) {
			m.fold(c.Open.events, base)
		} else if err := m.emit(c.Open, data, base, out); err != nil {
			return err
		}
	}
	if len(c.Markers) > 0 {
		m.carry = c.Markers[len(c.Markers)-1]
	}
	return m.emit(c.Sel, data, base, out)
}

func (m *Merger) addEnd(c *Chunk, data []byte, base int64, out Out) error {
	if len(c.Markers) > 0 {
		if err := m.settlePending(c.Markers[0], out); err != nil {
			return err
		}
		if err := m.emit(c.Sel, data, base, out); err != nil {
			return err
		}
	}
	return m.hold(c.Open, data, base, out)
}

// hold keeps an open tail until the marker that ends its step arrives.
func (m *Merger) hold(p *piece, data []byte, base int64, out Out) error {
	if p == nil {
		return nil
	}
	for i := range p.calls {
		p.calls[i].Line += base
	}
	for i := range p.events {
		p.events[i].Line += base
	}
	if m.cfg.Needs&NeedLines != 0 && m.cfg.Steps == nil {
		if err := m.writeRanges(p.ranges, data, out); err != nil {
			return err
		}
		p.ranges = p.ranges[:0]
	}
	for _, r := range p.ranges {
		m.pendingData = append(m.pendingData, data[r.Start:r.End]...)
	}
	p.ranges = p.ranges[:0]
	m.pending.merge(p)
	if len(m.pending.events) > maxPendingCalls {
		// Too far from the next marker to wait for it: their step stays unknown.
		m.fold(m.pending.events, 0)
		m.pending.events = m.pending.events[:0]
	}
	if m.cfg.Steps == nil && (len(m.pending.calls) > maxPendingCalls || m.overflow) {
		m.overflow = true
		return m.flushCalls(out)
	}
	return nil
}

// settlePending gives the held lines the step of the marker that ended them.
func (m *Merger) settlePending(step int64, out Out) error {
	defer func() { m.overflow = false }()
	if !m.overflow {
		m.pending.setStep(step)
	} else {
		for i := range m.pending.events {
			m.pending.events[i].Step = step
		}
	}
	if !m.cfg.Selects(step) {
		m.dropPending()
		return nil
	}
	return m.flushPending(out)
}

// Finish settles what is still held: lines after the last marker belong to no step.
func (m *Merger) Finish(out Out) error {
	if m.cfg.Boundary == BoundaryEnd {
		if !m.cfg.Selects(-1) {
			m.dropPending()
			return nil
		}
		return m.flushPending(out)
	}
	return nil
}

func (m *Merger) flushPending(out Out) error {
	if m.Agg != nil {
		m.Agg.Merge(m.pending.agg)
	}
	m.fold(m.pending.events, 0)
	m.pending.events = m.pending.events[:0]
	if len(m.pendingData) > 0 {
		if err := out.Lines(m.pendingData); err != nil {
			return err
		}
	}
	err := m.flushCalls(out)
	m.dropPending()
	return err
}

func (m *Merger) flushCalls(out Out) error {
	for i := range m.pending.calls {
		if err := out.Call(&m.pending.calls[i]); err != nil {
			return err
		}
	}
	m.pending.calls = m.pending.calls[:0]
	return nil
}

// dropPending leaves out the held lines; their calls still count in each rank's call order.
func (m *Merger) dropPending() {
	m.fold(m.pending.events, 0)
	m.pending.reset()
	m.pendingData = m.pendingData[:0]
}

// emit passes a settled, selected piece on.
func (m *Merger) emit(p *piece, data []byte, base int64, out Out) error {
	if m.Agg != nil {
		m.Agg.Merge(p.agg)
	}
	m.fold(p.events, base)
	if err := m.writeRanges(p.ranges, data, out); err != nil {
		return err
	}
	for i := range p.calls {
		p.calls[i].Line += base
		if err := out.Call(&p.calls[i]); err != nil {
			return err
		}
	}
	return nil
}

func (m *Merger) writeRanges(rs []Range, data []byte, out Out) error {
	for _, r := range rs {
		if err := out.Lines(data[r.Start:r.End]); err != nil {
			return err
		}
	}
	return nil
}

// fold passes events (line numbers relative to base) to Ranks, in order.
func (m *Merger) fold(events []RankEvent, base int64) {
	if m.Ranks == nil {
		return
	}
	for i := range events {
		events[i].Line += base
		m.Ranks.Add(m.File, &events[i])
	}
}

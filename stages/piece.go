package stages

// piece is what the lines between two step markers hold: their calls and byte ranges.
type piece struct {
	agg    *Agg
	calls  []Call
	ranges []Range
	events []RankEvent // kept whether or not the piece is selected: call order counts all
}

// Range is a run of whole lines, as byte offsets into the data they were read from.
type Range struct{ Start, End int64 }

func newPiece(n Needs) *piece {
	p := &piece{}
	if n&NeedAgg != 0 {
		p.agg = NewAgg()
	}
	return p
}

// addRange extends the last range when the new one follows it.
func (p *piece) addRange(r Range) {
	if k := len(p.ranges); k > 0 && p.ranges[k-1].End == r.Start {
		p.ranges[k-1].End = r.End
		return
	}
	p.ranges = append(p.ranges, r)
}

// merge moves o's content after p's; o may be reused afterwards.
func (p *piece) merge(o *piece) {
	if p.agg != nil && o.agg != nil {
		p.agg.Merge(o.agg)
	}
	p.calls = append(p.calls, o.calls...)
	p.events = append(p.events, o.events...)
	for _, r := range o.ranges {
		p.addRange(r)
	}
}

// reset empties p, keeping its memory.
func (p *piece) reset() {
	if p.agg != nil {
		p.agg.reset()
	}
	p.calls = p.calls[:0]
	p.ranges = p.ranges[:0]
	p.events = p.events[:0]
}

// setStep labels the calls of a piece once its step is known.
func (p *piece) setStep(step int64) {
	for i := range p.calls {
		p.calls[i].Step = step
	}
	for i := range p.events {
		p.events[i].Step = step
	}
}

func (p *piece) empty() bool {
	return len(p.calls) == 0 && len(p.ranges) == 0 && len(p.events) == 0 && (p.agg == nil || p.agg.empty())
}

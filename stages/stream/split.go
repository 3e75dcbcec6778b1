package stream

import "github.com/nccllog/nccllog/stages"

// SplitStage passes the selected lines' bytes to the run's Out, byte for byte and in input
// order (split).
type SplitStage struct{}

func (SplitStage) Name() string          { return "split" }
func (SplitStage) Reads() stages.Reads   { return stages.ReadsBytes }
func (SplitStage) Kinds() stages.KindSet { return stages.AllKinds }

func (SplitStage) New(cfg *stages.Config) stages.Partial {
	return &SplitPart{selecting: cfg.Steps != nil}
}

// Range is a run of whole lines, as byte offsets into the data they were read from.
type Range struct{ Start, End int64 }

// SplitPart is the split stage's Partial: the byte ranges of its lines in their chunk until
// it is anchored, then the bytes themselves (slices of the chunk, or copies where the lines
// are held past it).
type SplitPart struct {
	written   int64 // bytes written
	ranges    []Range
	bytes     [][]byte
	own       []byte // the copies' memory, which bytes may point into
	open      bool
	selecting bool
}

func (p *SplitPart) Add(l *stages.Line) {
	p.open = true
	p.addRange(Range{l.Off, l.End})
}

// addRange extends the last range when r follows it.
func (p *SplitPart) addRange(r Range) {
	if k := len(p.ranges); k > 0 && p.ranges[k-1].End == r.Start {
		p.ranges[k-1].End = r.End
		return
	}
	p.ranges = append(p.ranges, r)
}

func (p *SplitPart) Settle(_ int64, selected bool) {
	p.open = false
	if !selected {
		p.ranges, p.bytes, p.own = p.ranges[:0], p.bytes[:0], p.own[:0]
	}
}

// Anchor turns the ranges into bytes. Lines held past their chunk while steps are selected
// are copied; otherwise they are written before the Merger lets the chunk go.
func (p *SplitPart) Anchor(o stages.Origin) {
	for _, r := range p.ranges {
		b := o.Data[r.Start:r.End]
		if o.Held && p.selecting {
			at := len(p.own)
			p.own = append(p.own, b...)
			b = p.own[at:len(p.own):len(p.own)]
		}
		p.bytes = append(p.bytes, b)
	}
	p.ranges = p.ranges[:0]
}

func (p *SplitPart) Merge(o stages.Partial) {
	op := o.(*SplitPart)
	for _, r := range op.ranges {
		p.addRange(r)
	}
	p.bytes = append(p.bytes, op.bytes...)
	p.open = p.open || op.open
	p.written += op.written
}

// Reset keeps the ranges' memory but not the copies': the Partial merged into may still
// hold slices of them.
func (p *SplitPart) Reset() {
	*p = SplitPart{ranges: p.ranges[:0], bytes: p.bytes[:0], selecting: p.selecting}
}

// Commit writes the bytes of settled lines, and of every line where every line is selected.
func (p *SplitPart) Commit(out stages.Out) error {
	if p.open && p.selecting {
		return nil
	}
	for _, b := range p.bytes {
		if err := out.Lines(b); err != nil {
			return err
		}
		p.written += int64(len(b))
	}
	p.bytes, p.own = p.bytes[:0], p.own[:0]
	return nil
}

// Held is how many runs of lines wait for their step.
func (p *SplitPart) Held() int { return len(p.bytes) + len(p.ranges) }

// Waits reports whether the lines wait for their step: without a selection every line is
// written at once.
func (p *SplitPart) Waits() bool { return p.selecting }

// DropsUnselected: the lines of a step the run does not select are not written.
func (p *SplitPart) DropsUnselected() bool { return true }

func (SplitStage) Writes() bool { return true }

// SplitSnapshot is how many bytes a split Partial wrote and holds.
type SplitSnapshot struct {
	Written, Held int64
}

func (p *SplitPart) Snapshot() any {
	var held int64
	for _, b := range p.bytes {
		held += int64(len(b))
	}
	for _, r := range p.ranges {
		held += r.End - r.Start
	}
	return SplitSnapshot{p.written, held}
}

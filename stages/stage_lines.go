package stages

import "encoding/json"

// LinesStage accounts for every line of the input: each falls into exactly one class.
type LinesStage struct{}

func (LinesStage) Name() string   { return "lines" }
func (LinesStage) Reads() Reads   { return ReadsMarkers }
func (LinesStage) Kinds() KindSet { return AllKinds }

func (LinesStage) New(*Config) Partial { return &LinesPart{} }

// LinesPart is the lines stage's Partial.
type LinesPart struct {
	Lines
	anchored int // Problems before this index have their file and absolute line
}

func (p *LinesPart) Add(l *Line) {
	if l.P == nil {
		p.Total += l.Unread
		p.Unread += l.Unread
		return
	}
	p.Lines.Add(l.N, l.Text, l.P)
}

// Settle does nothing: every line is counted, whatever its step.
func (p *LinesPart) Settle(int64, bool) {}

func (p *LinesPart) Anchor(o Origin) {
	for i := p.anchored; i < len(p.Problems); i++ {
		p.Problems[i].File = o.File
		p.Problems[i].Line += o.Base
	}
	p.anchored = len(p.Problems)
}

func (p *LinesPart) Merge(o Partial) {
	op := o.(*LinesPart)
	whole := p.anchored == len(p.Problems)
	p.Lines.Merge(&op.Lines)
	if whole {
		p.anchored = min(p.anchored+op.anchored, len(p.Problems))
	}
}

func (p *LinesPart) Reset() { *p = LinesPart{Lines: Lines{Problems: p.Problems[:0]}} }

// LinesOf returns the line accounting of s.
func LinesOf(s *Set) *Lines {
	if p, ok := Part[*LinesPart](s); ok {
		return &p.Lines
	}
	return &Lines{}
}

func (p *LinesPart) Snapshot() any { return p.Lines }

func (p *LinesPart) Restore(data json.RawMessage) error {
	p.Reset()
	err := json.Unmarshal(data, &p.Lines)
	p.anchored = len(p.Problems)
	return err
}

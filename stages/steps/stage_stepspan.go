package steps

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// StepSpanStage records which steps the input's progress lines name, selected or not, so
// that a run whose --steps selected nothing can say why: the input has no progress line, or
// none of a step in the range (split and calls would otherwise print nothing, silently).
type StepSpanStage struct{}

func (StepSpanStage) Name() string          { return "stepspan" }
func (StepSpanStage) Reads() stages.Reads   { return stages.ReadsMarkers }
func (StepSpanStage) Kinds() stages.KindSet { return stages.Kinds(parser.KindProgress) }

func (StepSpanStage) New(cfg *stages.Config) stages.Partial { return &StepSpanPart{cfg: cfg} }

// StepSpan is what the progress lines of a run named: how many there were, the lowest and
// highest step, and how many were of a step the run selects.
type StepSpan struct {
	Markers, Selected int64
	First, Last       int64 // lowest and highest step; 0 and 0 without a marker
}

// StepSpanPart is the stepspan stage's Partial: it keeps every marker whatever its step.
type StepSpanPart struct {
	StepSpan
	cfg *stages.Config
}

func (p *StepSpanPart) Add(l *stages.Line) {
	step := l.P.Prog.Step
	if p.Markers == 0 || step < p.First {
		p.First = step
	}
	if p.Markers == 0 || step > p.Last {
		p.Last = step
	}
	p.Markers++
	if p.cfg.Selects(step) {
		p.Selected++
	}
}

func (p *StepSpanPart) Settle(int64, bool)   {}
func (p *StepSpanPart) Anchor(stages.Origin) {}

func (p *StepSpanPart) Merge(o stages.Partial) {
	op := o.(*StepSpanPart)
	if op.Markers == 0 {
		return
	}
	if p.Markers == 0 {
		p.First, p.Last = op.First, op.Last
	}
	p.First, p.Last = min(p.First, op.First), max(p.Last, op.Last)
	p.Markers += op.Markers
	p.Selected += op.Selected
}

func (p *StepSpanPart) Reset()        { p.StepSpan = StepSpan{} }
func (p *StepSpanPart) Snapshot() any { return p.StepSpan }

// StepSpanOf returns the step span of s, and false where the run had no stepspan stage.
func StepSpanOf(s *stages.Set) (StepSpan, bool) {
	if p, ok := stages.Part[*StepSpanPart](s); ok {
		return p.StepSpan, true
	}
	return StepSpan{}, false
}

// SelectedNothing reports whether a run that selects the steps of r (nil: every line) found
// no progress line of a step in it: then Markers says whether the input has any, and First
// and Last which steps they are of.
func (s StepSpan) SelectedNothing(r *stages.StepRange) bool { return r != nil && s.Selected == 0 }

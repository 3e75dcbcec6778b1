package stages

import "github.com/nccllog/nccllog/parser"

// StepsStage collects the selected steps' progress lines: step time and TFLOP/s per GPU.
type StepsStage struct{}

func (StepsStage) Name() string   { return "steps" }
func (StepsStage) Reads() Reads   { return ReadsMarkers }
func (StepsStage) Kinds() KindSet { return Kinds(parser.KindProgress) }

func (StepsStage) New(*Config) Partial { return &StepsPart{Steps: NewSteps()} }

// StepsPart is the steps stage's Partial. A marker is settled with its own step, so a
// stretch holds at most one marker when it is settled.
type StepsPart struct{ *Steps }

func (p *StepsPart) Add(l *Line) { p.Steps.Add(&l.P.Prog) }

func (p *StepsPart) Settle(_ int64, selected bool) {
	if !selected {
		clear(p.by)
	}
}

func (p *StepsPart) Anchor(Origin)   {}
func (p *StepsPart) Merge(o Partial) { p.Steps.Merge(o.(*StepsPart).Steps) }
func (p *StepsPart) Reset()          { clear(p.by) }

// StepsOf returns the steps of s (empty where the run had no steps stage).
func StepsOf(s *Set) *Steps {
	if p, ok := Part[*StepsPart](s); ok {
		return p.Steps
	}
	return NewSteps()
}

func (p *StepsPart) Snapshot() any { return p.Points() }

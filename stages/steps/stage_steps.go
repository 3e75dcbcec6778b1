package steps

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// StepsStage collects the selected steps' progress lines: step time and TFLOP/s per GPU.
type StepsStage struct{}

func (StepsStage) Name() string          { return "steps" }
func (StepsStage) Reads() stages.Reads   { return stages.ReadsMarkers }
func (StepsStage) Kinds() stages.KindSet { return stages.Kinds(parser.KindProgress) }

func (StepsStage) New(*stages.Config) stages.Partial { return &StepsPart{Steps: NewSteps()} }

// StepsPart is the steps stage's Partial. A marker is settled with its own step, so a
// stretch holds at most one marker when it is settled.
type StepsPart struct{ *Steps }

func (p *StepsPart) Add(l *stages.Line) { p.Steps.Add(&l.P.Prog) }

func (p *StepsPart) Settle(_ int64, selected bool) {
	if !selected {
		clear(p.by)
	}
}

func (p *StepsPart) Anchor(stages.Origin)   {}
func (p *StepsPart) Merge(o stages.Partial) { p.Steps.Merge(o.(*StepsPart).Steps) }
func (p *StepsPart) Reset()                 { clear(p.by) }

// StepsOf returns the steps of s (empty where the run had no steps stage).
func StepsOf(s *stages.Set) *Steps {
	if p, ok := stages.Part[*StepsPart](s); ok {
		return p.Steps
	}
	return NewSteps()
}

// StepSums is what the progress lines of one step added up to: a Steps' content, from which
// its means are taken (means of means would weigh parts wrongly).
type StepSums struct {
	Step, Lines, NTime, NTFLOPs int64
	SumTime, SumTFLOPs          float64
	Framework                   string
}

// stepSumsJSON is StepSums as a partial result holds it, with the same keys.
type stepSumsJSON struct {
	Step, Lines, NTime, NTFLOPs int64
	SumTime, SumTFLOPs          sumJSON
	Framework                   string
}

// sumJSON is a sum that may be inf or nan (a progress line printed one): JSON has no such
// numbers, so those are the strings "inf", "-inf" and "nan"; a finite sum is a number, as it
// always was.
type sumJSON float64

func (f sumJSON) MarshalJSON() ([]byte, error) {
	if c := parser.NonFiniteOf(float64(f)); c != parser.Finite {
		return json.Marshal(c.String())
	}
	return json.Marshal(float64(f))
}

func (f *sumJSON) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '"' {
		return json.Unmarshal(b, (*float64)(f))
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	for _, c := range []parser.NonFinite{parser.PosInf, parser.NegInf, parser.NaN} {
		if s == c.String() {
			*f = sumJSON(c.Value(0))
			return nil
		}
	}
	return fmt.Errorf("step sum %q is no number", s)
}

func (s StepSums) MarshalJSON() ([]byte, error) {
	return json.Marshal(stepSumsJSON{s.Step, s.Lines, s.NTime, s.NTFLOPs, sumJSON(s.SumTime), sumJSON(s.SumTFLOPs), s.Framework})
}

func (s *StepSums) UnmarshalJSON(b []byte) error {
	var j stepSumsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = StepSums{j.Step, j.Lines, j.NTime, j.NTFLOPs, float64(j.SumTime), float64(j.SumTFLOPs), j.Framework}
	return nil
}

// Snapshot is the sums of every step, in step order.
func (p *StepsPart) Snapshot() any {
	out := make([]StepSums, 0, len(p.by))
	for k, a := range p.by {
		out = append(out, StepSums{k, a.lines, a.nTime, a.nTF, a.sumTime, a.sumTF, a.framework})
	}
	slices.SortFunc(out, func(x, y StepSums) int { return cmp.Compare(x.Step, y.Step) })
	return out
}

func (p *StepsPart) Restore(dec *json.Decoder, _ *stages.Limits) error {
	var sums []StepSums
	if err := dec.Decode(&sums); err != nil {
		return err
	}
	clear(p.by)
	for _, s := range sums {
		if err := stages.CheckCounts(fmt.Sprintf(" of step %d", s.Step), stages.Named{Name: "progress lines", N: s.Lines},
			stages.Named{Name: "step times", N: s.NTime}, stages.Named{Name: "TFLOP/s values", N: s.NTFLOPs}); err != nil {
			return err
		}
		p.add(s.Step, &stepAcc{s.Lines, s.NTime, s.NTFLOPs, s.SumTime, s.SumTFLOPs, s.Framework})
	}
	return nil
}

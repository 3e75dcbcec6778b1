package stages

import (
	"cmp"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// StepPoint is what the progress lines of one step said. Where several lines name the same
// step (every rank printing it), TimeS and TFLOPs are their means and Lines says how many.
type StepPoint struct {
	Step      int64
	Lines     int64
	TimeS     float64
	TFLOPs    float64
	HasTime   bool
	HasTFLOPs bool
	Framework string
}

type stepAcc struct {
	lines, nTime, nTF int64
	sumTime, sumTF    float64
	framework         string
}

// Steps collects progress lines by step number.
type Steps struct {
	by map[int64]*stepAcc
}

// NewSteps returns an empty Steps.
func NewSteps() *Steps { return &Steps{by: make(map[int64]*stepAcc)} }

// Add takes one progress line.
func (s *Steps) Add(p *parser.Progress) {
	a := stepAcc{lines: 1, framework: p.Framework}
	if p.HasTime {
		a.nTime, a.sumTime = 1, p.TimeS
	}
	if p.HasTFLOPs {
		a.nTF, a.sumTF = 1, p.TFLOPs
	}
	s.add(p.Step, &a)
}

// Merge adds o's lines to s.
func (s *Steps) Merge(o *Steps) {
	for k, b := range o.by {
		s.add(k, b)
	}
}

func (s *Steps) add(step int64, b *stepAcc) {
	a := s.by[step]
	if a == nil {
		a = &stepAcc{framework: b.framework}
		s.by[step] = a
	}
	a.lines += b.lines
	a.nTime += b.nTime
	a.nTF += b.nTF
	a.sumTime += b.sumTime
	a.sumTF += b.sumTF
}

// Points returns the steps in ascending order.
func (s *Steps) Points() []StepPoint {
	out := make([]StepPoint, 0, len(s.by))
	for k, a := range s.by {
		p := StepPoint{Step: k, Lines: a.lines, HasTime: a.nTime > 0, HasTFLOPs: a.nTF > 0, Framework: a.framework}
		if p.HasTime {
			p.TimeS = a.sumTime / float64(a.nTime)
		}
		if p.HasTFLOPs {
			p.TFLOPs = a.sumTF / float64(a.nTF)
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(x, y StepPoint) int { return cmp.Compare(x.Step, y.Step) })
	return out
}

// StepSummary is the average over steps of step time and TFLOP/s per GPU.
type StepSummary struct {
	N         int
	AvgTimeS  float64
	AvgTFLOPs float64
	NTime     int
	NTFLOPs   int
}

// Summary averages the steps' values in step order; a value is averaged over the steps that
// printed it.
func (s *Steps) Summary() StepSummary { return Summarize(s.Points()) }

// Summarize is Summary over points already taken from Points.
func Summarize(pts []StepPoint) StepSummary {
	sum := StepSummary{N: len(pts)}
	for _, p := range pts {
		if p.HasTime {
			sum.NTime++
			sum.AvgTimeS += p.TimeS
		}
		if p.HasTFLOPs {
			sum.NTFLOPs++
			sum.AvgTFLOPs += p.TFLOPs
		}
	}
	if sum.NTime > 0 {
		sum.AvgTimeS /= float64(sum.NTime)
	}
	if sum.NTFLOPs > 0 {
		sum.AvgTFLOPs /= float64(sum.NTFLOPs)
	}
	return sum
}

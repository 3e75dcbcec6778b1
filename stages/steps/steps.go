package steps

import (
	"cmp"
	"math"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// StepPoint is what the progress lines of one step said. Where several lines name the same
// step (every rank printing it), TimeS and TFLOPs are their means and Lines says how many. A
// line that printed inf or nan makes the mean inf or nan (IEEE arithmetic), so a point's
// values may be non-finite.
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
		a.nTime, a.sumTime = 1, p.TimeNF.Value(p.TimeS)
	}
	if p.HasTFLOPs {
		a.nTF, a.sumTF = 1, p.TFLOPsNF.Value(p.TFLOPs)
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

// StepSummary is the average over steps of step time and TFLOP/s per GPU. A step whose
// value is inf or nan is left out of its average and counted in TimeLeftOut / TFLOPsLeftOut;
// NTime and NTFLOPs count the steps averaged.
type StepSummary struct {
	N             int
	AvgTimeS      float64
	AvgTFLOPs     float64
	NTime         int
	NTFLOPs       int
	TimeLeftOut   int
	TFLOPsLeftOut int
}

// Summary averages the steps' values in step order; a value is averaged over the steps that
// printed it finite.
func (s *Steps) Summary() StepSummary { return Summarize(s.Points()) }

// Summarize is Summary over points already taken from Points.
func Summarize(pts []StepPoint) StepSummary {
	sum := StepSummary{N: len(pts)}
	var sumTime, sumTF float64
	for _, p := range pts {
		if p.HasTime {
			addFinite(p.TimeS, &sumTime, &sum.NTime, &sum.TimeLeftOut)
		}
		if p.HasTFLOPs {
			addFinite(p.TFLOPs, &sumTF, &sum.NTFLOPs, &sum.TFLOPsLeftOut)
		}
	}
	if sum.NTime > 0 {
		sum.AvgTimeS = sumTime / float64(sum.NTime)
	}
	if sum.NTFLOPs > 0 {
		sum.AvgTFLOPs = sumTF / float64(sum.NTFLOPs)
	}
	return sum
}

// addFinite adds v to *sum and counts it in *n, or counts it in *leftOut where it is inf or nan.
func addFinite(v float64, sum *float64, n, leftOut *int) {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		*leftOut++
		return
	}
	*sum += v
	*n++
}

// AWKAverages are the averages of pts as the AWK chain's steps.awk took them: its pattern
// reads no number from inf or nan (nor from -inf: the lone "-" it matches is 0) yet counts
// the step, so a non-finite value weighs as 0 over the steps that printed the field. Without
// such values they are Summarize's.
func AWKAverages(pts []StepPoint) (timeS, tflops float64) {
	var sumTime, sumTF float64
	var nTime, nTF int
	for _, p := range pts {
		if p.HasTime {
			nTime++
			sumTime += finiteOr0(p.TimeS)
		}
		if p.HasTFLOPs {
			nTF++
			sumTF += finiteOr0(p.TFLOPs)
		}
	}
	if nTime > 0 {
		timeS = sumTime / float64(nTime)
	}
	if nTF > 0 {
		tflops = sumTF / float64(nTF)
	}
	return timeS, tflops
}

func finiteOr0(v float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0
	}
	return v
}

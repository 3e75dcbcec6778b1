package strag

import (
	"cmp"
	"fmt"
	"slices"
)

// minStepSamples is how many compared calls a step needs before it can count as late.
const minStepSamples = 3

// judge lists the processes that stand out, worst first. A step is late for a process where
// the median of its lags over the step's calls passes thr and it came last on its host in
// most of them; a process late on half of its timed steps or more (3 at least) is chronic,
// one late on fewer is one-off where it has 5 timed steps or more to tell (with fewer, a
// late step is not told from a slow start).
func judge(stats map[procKey]*procStats, thr int64) []Straggler {
	out := []Straggler{}
	worst := map[procKey]int64{}
	for k, st := range stats {
		late, timed := lateSteps(st.samples, thr)
		s, ok := classify(late, timed)
		if !ok {
			continue
		}
		s.Host, s.Pid, s.Dev, s.Rank = k.Host, k.Pid, k.Dev, st.rank
		fill(&s, st)
		for _, l := range late {
			worst[k] = max(worst[k], int64(l.LagMs*1e6))
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Straggler) int {
		ka, kb := procKey{a.Host, a.Pid, a.Dev}, procKey{b.Host, b.Pid, b.Dev}
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), -cmp.Compare(worst[ka], worst[kb]), cmp.Compare(a.Host, b.Host),
			cmp.Compare(a.Pid, b.Pid), cmp.Compare(a.Dev, b.Dev))
	})
	return out
}

// classify names the kind of a process with late steps of timed, or reports false.
func classify(late []StepLag, timed int) (Straggler, bool) {
	s := Straggler{LateSteps: len(late), TimedSteps: timed}
	switch {
	case len(late) == 0:
		return s, false
	case 2*len(late) >= timed && len(late) >= 3, timed == 1 && len(late) == 1:
		s.Kind = Chronic
	case timed >= 5 && 2*len(late) < timed:
		s.Kind = OneOff
	default:
		return s, false
	}
	s.Steps = late[:min(len(late), MaxSteps)]
	return s, true
}

// lateSteps returns the process's late steps and how many steps it has enough compared calls in.
func lateSteps(ss []sample, thr int64) ([]StepLag, int) {
	by := map[int64][]sample{}
	for _, s := range ss {
		by[s.step] = append(by[s.step], s)
	}
	steps := make([]int64, 0, len(by))
	for k := range by {
		steps = append(steps, k)
	}
	slices.Sort(steps)
	var late []StepLag
	timed := 0
	for _, k := range steps {
		v := by[k]
		if len(v) < minStepSamples {
			continue
		}
		timed++
		lags := make([]int64, len(v))
		lasts := 0
		for i, s := range v {
			lags[i] = s.lagNs
			if s.last {
				lasts++
			}
		}
		if m := median(lags); m > thr && 2*lasts > len(v) {
			late = append(late, StepLag{Step: k, LagMs: ms(m)})
		}
	}
	return late, timed
}

// fill sets the straggler's overall numbers from its samples.
func fill(s *Straggler, st *procStats) {
	lags := make([]int64, len(st.samples))
	lasts := 0
	for i, x := range st.samples {
		lags[i] = x.lagNs
		if x.last {
			lasts++
		}
	}
	slices.Sort(lags)
	s.LastShare = float64(lasts*1000/len(lags)) / 1000
	s.MedianLagMs = ms(median(slices.Clone(lags)))
	s.P95LagMs = ms(quantile(lags, 0.95))
	s.Comm = fmt.Sprintf("%#x", st.comm)
}

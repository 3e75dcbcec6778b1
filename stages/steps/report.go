package steps

import "math"

// StepRow is one step as the steps JSON lists it; Point keeps the values as the progress
// lines printed them (inf, -inf and nan included) for the table and CSV.
type StepRow struct {
	Step   int64     `json:"step"`
	TimeS  *float64  `json:"time_s"`
	TFLOPs *float64  `json:"tflops_per_gpu"`
	Lines  int64     `json:"lines"`
	Point  StepPoint `json:"-"`
}

// Report is the steps' JSON. A value a progress line printed as inf, -inf or nan is null
// (JSON has no such numbers) and is left out of its average, which says so in a count.
type Report struct {
	N             int       `json:"n"`
	AvgTimeS      *float64  `json:"avg_time_s"`
	AvgTFLOPs     *float64  `json:"avg_tflops_per_gpu"`
	TimeLeftOut   int       `json:"time_s_left_out,omitempty"`
	TFLOPsLeftOut int       `json:"tflops_per_gpu_left_out,omitempty"`
	Steps         []StepRow `json:"steps"`
	// Inferred: the log has no progress lines and the steps are the repeats of its call
	// pattern (Pattern), their times from the calls' (see Infer); their lines count the
	// processes each step's median time was taken over.
	Inferred bool     `json:"inferred,omitempty"`
	Pattern  *Pattern `json:"inferred_from,omitempty"`
	// AWKTimeS and AWKTFLOPs are the averages as the AWK chain took them (see AWKAverages).
	AWKTimeS  float64 `json:"-"`
	AWKTFLOPs float64 `json:"-"`
}

// Report returns the steps in step order with their averages.
func (s *Steps) Report() Report {
	pts := s.Points()
	sum := Summarize(pts)
	out := Report{N: sum.N, AvgTimeS: optional(sum.AvgTimeS, sum.NTime > 0),
		AvgTFLOPs: optional(sum.AvgTFLOPs, sum.NTFLOPs > 0), TimeLeftOut: sum.TimeLeftOut,
		TFLOPsLeftOut: sum.TFLOPsLeftOut, Steps: make([]StepRow, 0, len(pts))}
	for _, p := range pts {
		out.Steps = append(out.Steps, StepRow{p.Step, optional(p.TimeS, p.HasTime), optional(p.TFLOPs, p.HasTFLOPs), p.Lines, p})
	}
	out.AWKTimeS, out.AWKTFLOPs = AWKAverages(pts)
	return out
}

// optional is v where the line printed it and it is finite, else nil (null in JSON).
func optional(v float64, ok bool) *float64 {
	if !ok || math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// Report is the steps inferred by inf as the steps command lists them, with no TFLOP/s.
func (inf Inference) Report() Report {
	var s Steps
	s.by = make(map[int64]*stepAcc, len(inf.Steps))
	for _, st := range inf.Steps {
		s.by[st.Step] = &stepAcc{lines: st.Processes, nTime: 1, sumTime: st.TimeS}
	}
	rep := s.Report()
	rep.Inferred = true
	pat := inf.Pattern
	rep.Pattern = &pat
	return rep
}

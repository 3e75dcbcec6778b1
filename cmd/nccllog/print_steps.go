package main

import (
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages"
)

type stepJSON struct {
	Step   int64    `json:"step"`
	TimeS  *float64 `json:"time_s"`
	TFLOPs *float64 `json:"tflops_per_gpu"`
	Lines  int64    `json:"lines"`
}

type stepsJSON struct {
	N         int        `json:"n"`
	AvgTimeS  *float64   `json:"avg_time_s"`
	AvgTFLOPs *float64   `json:"avg_tflops_per_gpu"`
	Steps     []stepJSON `json:"steps"`
}

func optional(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return &v
}

func stepsValue(s *stages.Steps) stepsJSON {
	pts := s.Points()
	sum := stages.Summarize(pts)
	out := stepsJSON{N: sum.N, AvgTimeS: optional(sum.AvgTimeS, sum.NTime > 0),
		AvgTFLOPs: optional(sum.AvgTFLOPs, sum.NTFLOPs > 0), Steps: make([]stepJSON, 0, len(pts))}
	for _, p := range pts {
		out.Steps = append(out.Steps, stepJSON{p.Step, optional(p.TimeS, p.HasTime), optional(p.TFLOPs, p.HasTFLOPs), p.Lines})
	}
	return out
}

func printSteps(w *output, r *view) error {
	v := stepsValue(r.steps)
	switch r.opts.format {
	case "json":
		return writeJSON(w, v)
	case "csv":
		var rows [][]string
		for _, p := range v.Steps {
			rows = append(rows, []string{itoa(p.Step), fmtOpt(p.TimeS), fmtOpt(p.TFLOPs), itoa(p.Lines)})
		}
		return writeCSV(w, []string{"step", "time_s", "tflops_per_gpu", "lines"}, rows)
	case "awk":
		return printStepsAWK(w, r)
	}
	t := newTable(w, "step", "time (s)", "TFLOP/s/GPU")
	for _, p := range v.Steps {
		t.row(itoa(p.Step), fmtOpt(p.TimeS), fmtOpt(p.TFLOPs))
	}
	t.row("avg of "+strconv.Itoa(v.N), rounded(v.AvgTimeS), rounded(v.AvgTFLOPs))
	t.flush()
	return nil
}

func fmtOpt(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// printStepsAWK prints what the AWK chain printed, byte for byte.
func printStepsAWK(w *output, r *view) error {
	s := r.steps.Summary()
	rg := r.opts.cfg.Steps
	w.printf("Steps: %d (iterations %d-%d)\n", s.N, rg.From, rg.To)
	w.printf("Average train_step_timing (s): %f\n", s.AvgTimeS)
	w.printf("Average TFLOPS_per_GPU:        %f\n", s.AvgTFLOPs)
	return nil
}

// rounded prints an average to three decimals, without trailing zeros.
func rounded(v *float64) string {
	if v == nil {
		return ""
	}
	s := strconv.FormatFloat(*v, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

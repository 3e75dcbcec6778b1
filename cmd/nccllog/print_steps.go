package main

import (
	"math"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/steps"
)

type stepJSON struct {
	Step   int64    `json:"step"`
	TimeS  *float64 `json:"time_s"`
	TFLOPs *float64 `json:"tflops_per_gpu"`
	Lines  int64    `json:"lines"`
}

// stepsJSON is the steps' JSON. A value a progress line printed as inf, -inf or nan is null
// (JSON has no such numbers) and is left out of its average, which says so in a count.
type stepsJSON struct {
	N             int        `json:"n"`
	AvgTimeS      *float64   `json:"avg_time_s"`
	AvgTFLOPs     *float64   `json:"avg_tflops_per_gpu"`
	TimeLeftOut   int        `json:"time_s_left_out,omitempty"`
	TFLOPsLeftOut int        `json:"tflops_per_gpu_left_out,omitempty"`
	Steps         []stepJSON `json:"steps"`
}

// optional is v where the line printed it and it is finite, else nil (null in JSON).
func optional(v float64, ok bool) *float64 {
	if !ok || math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

func stepsValue(pts []steps.StepPoint) stepsJSON {
	sum := steps.Summarize(pts)
	out := stepsJSON{N: sum.N, AvgTimeS: optional(sum.AvgTimeS, sum.NTime > 0),
		AvgTFLOPs: optional(sum.AvgTFLOPs, sum.NTFLOPs > 0), TimeLeftOut: sum.TimeLeftOut,
		TFLOPsLeftOut: sum.TFLOPsLeftOut, Steps: make([]stepJSON, 0, len(pts))}
	for _, p := range pts {
		out.Steps = append(out.Steps, stepJSON{p.Step, optional(p.TimeS, p.HasTime), optional(p.TFLOPs, p.HasTFLOPs), p.Lines})
	}
	return out
}

func printSteps(w *output, r *view) error {
	pts := r.steps.Points()
	switch r.opts.format {
	case "json":
		return writeJSON(w, stepsValue(pts))
	case "csv":
		var rows [][]string
		for _, p := range pts {
			rows = append(rows, []string{itoa(p.Step), fmtValue(p.TimeS, p.HasTime), fmtValue(p.TFLOPs, p.HasTFLOPs), itoa(p.Lines)})
		}
		return writeCSV(w, []string{"step", "time_s", "tflops_per_gpu", "lines"}, rows)
	case "awk":
		return printStepsAWK(w, r, pts)
	}
	v := stepsValue(pts)
	t := newTable(w, "step", "time (s)", "TFLOP/s/GPU")
	for _, p := range pts {
		t.row(itoa(p.Step), fmtValue(p.TimeS, p.HasTime), fmtValue(p.TFLOPs, p.HasTFLOPs))
	}
	t.row("avg of "+strconv.Itoa(v.N), rounded(v.AvgTimeS), rounded(v.AvgTFLOPs))
	t.flush()
	leftOutNote(w, "time (s)", v.TimeLeftOut)
	leftOutNote(w, "TFLOP/s/GPU", v.TFLOPsLeftOut)
	return nil
}

// leftOutNote says how many steps an average left out for a value that is not finite.
func leftOutNote(w *output, column string, n int) {
	switch {
	case n == 1:
		w.printf("note: the %s average leaves out 1 step whose value is inf, -inf or nan\n", column)
	case n > 1:
		w.printf("note: the %s average leaves out %d steps whose values are inf, -inf or nan\n", column, n)
	}
}

// fmtValue prints a value in full, "" where the line did not print it, and a non-finite one
// as Python prints it: inf, -inf, nan.
func fmtValue(v float64, has bool) string {
	if !has {
		return ""
	}
	if c := parser.NonFiniteOf(v); c != parser.Finite {
		return c.String()
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// printStepsAWK prints what the AWK chain printed, byte for byte.
func printStepsAWK(w *output, r *view, pts []steps.StepPoint) error {
	timeS, tflops := steps.AWKAverages(pts)
	rg := r.opts.cfg.Steps
	w.printf("Steps: %d (iterations %d-%d)\n", len(pts), rg.From, rg.To)
	w.printf("Average train_step_timing (s): %f\n", timeS)
	w.printf("Average TFLOPS_per_GPU:        %f\n", tflops)
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

package main

import (
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/steps"
)

func printSteps(w *output, r *view) error {
	rep := r.steps.Report()
	inf, inferred := inferSteps(r)
	if inferred {
		rep = inf.Report()
	}
	switch r.opts.format {
	case "json":
		return writeJSON(w, rep)
	case "csv":
		var rows [][]string
		for _, s := range rep.Steps {
			p := s.Point
			rows = append(rows, []string{itoa(p.Step), fmtValue(p.TimeS, p.HasTime), fmtValue(p.TFLOPs, p.HasTFLOPs), itoa(p.Lines)})
		}
		return writeCSV(w, []string{"step", "time_s", "tflops_per_gpu", "lines"}, rows)
	case "awk":
		return printStepsAWK(w, r, rep)
	}
	if inferred {
		inferredHeading(w, inf.Pattern)
	}
	t := newTable(w, "step", "time (s)", "TFLOP/s/GPU")
	for _, s := range rep.Steps {
		p := s.Point
		t.row(itoa(p.Step), fmtValue(p.TimeS, p.HasTime), fmtValue(p.TFLOPs, p.HasTFLOPs))
	}
	t.row("avg of "+strconv.Itoa(rep.N), rounded(rep.AvgTimeS), rounded(rep.AvgTFLOPs))
	t.flush()
	leftOutNote(w, "time (s)", rep.TimeLeftOut)
	leftOutNote(w, "TFLOP/s/GPU", rep.TFLOPsLeftOut)
	if inferred && inf.Pattern.Truncated {
		w.printf("note: some processes' later steps are not listed: past %d steps, or where their calls after the first %d do not follow the pattern of those\n", steps.MaxSteps, steps.KeptCalls)
	}
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
func printStepsAWK(w *output, r *view, rep steps.Report) error {
	rg := r.opts.cfg.Steps
	w.printf("Steps: %d (iterations %d-%d)\n", len(rep.Steps), rg.From, rg.To)
	w.printf("Average train_step_timing (s): %f\n", rep.AWKTimeS)
	w.printf("Average TFLOPS_per_GPU:        %f\n", rep.AWKTFLOPs)
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

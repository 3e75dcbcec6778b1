package steps_test

import (
	"encoding/json"
	"math"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
	"github.com/nccllog/nccllog/stages/steps"
)

// nonFiniteSteps holds progress lines that printed inf, -inf and nan (marked as the parser
// marks them) beside finite ones: step 1 finite, step 2 one rank's inf TFLOP/s among finite
// ones, step 3 a nan time, step 4 -inf TFLOP/s and inf TFLOP/s (whose mean is nan).
func nonFiniteSteps() *steps.Steps {
	s := steps.NewSteps()
	for _, p := range []parser.Progress{
		stagetest.Progress(1, 2, 100),
		stagetest.Progress(2, 4, 100), {Framework: "nemo", Step: 2, TimeS: 4, HasTime: true, HasTFLOPs: true, TFLOPsNF: parser.PosInf},
		{Framework: "nemo", Step: 3, HasTime: true, TimeNF: parser.NaN, TFLOPs: 120, HasTFLOPs: true},
		{Framework: "nemo", Step: 4, TimeS: 3, HasTime: true, HasTFLOPs: true, TFLOPsNF: parser.NegInf},
		{Framework: "nemo", Step: 4, TimeS: 3, HasTime: true, HasTFLOPs: true, TFLOPsNF: parser.PosInf},
	} {
		s.Add(&p)
	}
	return s
}

// TestStepsNonFinite: a step's mean is what IEEE arithmetic makes of its lines' values, and
// the averages over steps leave the non-finite means out and count them.
func TestStepsNonFinite(t *testing.T) {
	s := nonFiniteSteps()
	want := []steps.StepPoint{
		{Step: 1, Lines: 1, TimeS: 2, TFLOPs: 100, HasTime: true, HasTFLOPs: true, Framework: "nemo"},
		{Step: 2, Lines: 2, TimeS: 4, TFLOPs: math.Inf(1), HasTime: true, HasTFLOPs: true, Framework: "nemo"},
		{Step: 3, Lines: 1, TimeS: math.NaN(), TFLOPs: 120, HasTime: true, HasTFLOPs: true, Framework: "nemo"},
		{Step: 4, Lines: 2, TimeS: 3, TFLOPs: math.NaN(), HasTime: true, HasTFLOPs: true, Framework: "nemo"},
	}
	if diff := gocmp.Diff(want, s.Points(), cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("Points (-want +got):\n%s", diff)
	}
	wantSum := steps.StepSummary{N: 4, AvgTimeS: 3, AvgTFLOPs: 110, NTime: 3, NTFLOPs: 2, TimeLeftOut: 1, TFLOPsLeftOut: 2}
	if diff := gocmp.Diff(wantSum, s.Summary()); diff != "" {
		t.Errorf("Summary (-want +got):\n%s", diff)
	}
	// steps.awk: a non-finite value adds 0 and counts.
	if tm, tf := steps.AWKAverages(s.Points()); tm != 9.0/4 || tf != 220.0/4 {
		t.Errorf("AWKAverages = %v, %v; want %v, %v", tm, tf, 9.0/4, 220.0/4)
	}
}

// TestStepsSnapshotNonFinite: a partial result of steps whose sums are inf or nan is written
// (JSON has no such numbers: "json: unsupported value") and reads back to the same steps.
func TestStepsSnapshotNonFinite(t *testing.T) {
	part := &steps.StepsPart{nonFiniteSteps()}
	data, err := json.Marshal(part.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	back := &steps.StepsPart{steps.NewSteps()}
	if err := stagetest.RestoreJSON(back, data); err != nil {
		t.Fatalf("Restore(%s): %v", data, err)
	}
	if diff := gocmp.Diff(part.Points(), back.Points(), cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("Points (-written +read back):\n%s", diff)
	}
	// Finite sums are numbers, as partial results always held them; a string that names no
	// value is refused.
	one := &steps.StepsPart{steps.NewSteps()}
	p := stagetest.Progress(7, 2.5, 120)
	one.Steps.Add(&p)
	if data, _ := json.Marshal(one.Snapshot()); string(data) != `[{"Step":7,"Lines":1,"NTime":1,"NTFLOPs":1,"SumTime":2.5,"SumTFLOPs":120,"Framework":"nemo"}]` {
		t.Errorf("finite snapshot %s", data)
	}
	bad := `[{"Step":7,"Lines":1,"NTime":1,"NTFLOPs":0,"SumTime":"many","SumTFLOPs":0,"Framework":"nemo"}]`
	if err := stagetest.RestoreJSON(back, []byte(bad)); err == nil {
		t.Errorf("Restore(%s) took a sum that is no number", bad)
	}
}

package steps_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
	"github.com/nccllog/nccllog/stages/steps"
)

// TestStepsMerge: the Steps of parts merged in any order equal the Steps of the whole. The
// values are multiples of 1/4 so that every sum is exact.
func TestStepsMerge(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 9))
		var ps []parser.Progress
		for range 200 {
			tm, tf := float64(rng.IntN(40))/4, float64(rng.IntN(800))/4
			if rng.IntN(5) == 0 {
				tm = -1
			}
			if rng.IntN(5) == 0 {
				tf = -1
			}
			ps = append(ps, stagetest.Progress(int64(rng.IntN(30)), tm, tf))
		}
		whole := steps.NewSteps()
		for i := range ps {
			whole.Add(&ps[i])
		}
		cuts := []int{0, len(ps)}
		for range 4 {
			cuts = append(cuts, rng.IntN(len(ps)+1))
		}
		slices.Sort(cuts)
		parts := make([]*steps.Steps, len(cuts)-1)
		for i := range parts {
			parts[i] = steps.NewSteps()
			for j := cuts[i]; j < cuts[i+1]; j++ {
				parts[i].Add(&ps[j])
			}
		}
		merged := steps.NewSteps()
		for _, i := range rng.Perm(len(parts)) {
			merged.Merge(parts[i])
		}
		if diff := gocmp.Diff(whole.Points(), merged.Points()); diff != "" {
			t.Errorf("seed %d: Points (-whole +merged):\n%s", seed, diff)
		}
		if diff := gocmp.Diff(whole.Summary(), merged.Summary()); diff != "" {
			t.Errorf("seed %d: Summary (-whole +merged):\n%s", seed, diff)
		}
	}
}

// TestStepsDuplicates: several progress lines for one step are averaged, each value over the
// lines that printed it.
func TestStepsDuplicates(t *testing.T) {
	s := steps.NewSteps()
	for _, p := range []parser.Progress{
		stagetest.Progress(3, 1, 100), stagetest.Progress(3, 2, -1), stagetest.Progress(3, 4.5, 200),
		stagetest.Progress(1, -1, -1), stagetest.Progress(1, -1, 50),
		stagetest.Progress(2, 2.5, 120),
	} {
		s.Add(&p)
	}
	want := []steps.StepPoint{
		{Step: 1, Lines: 2, TFLOPs: 50, HasTFLOPs: true, Framework: "nemo"},
		{Step: 2, Lines: 1, TimeS: 2.5, TFLOPs: 120, HasTime: true, HasTFLOPs: true, Framework: "nemo"},
		{Step: 3, Lines: 3, TimeS: 2.5, TFLOPs: 150, HasTime: true, HasTFLOPs: true, Framework: "nemo"},
	}
	if diff := gocmp.Diff(want, s.Points()); diff != "" {
		t.Errorf("Points (-want +got):\n%s", diff)
	}
	// The summary averages over steps, not lines: time over steps 2 and 3, TFLOP/s over all.
	wantSum := steps.StepSummary{N: 3, AvgTimeS: 2.5, AvgTFLOPs: (50 + 120 + 150) / 3.0, NTime: 2, NTFLOPs: 3}
	if diff := gocmp.Diff(wantSum, s.Summary()); diff != "" {
		t.Errorf("Summary (-want +got):\n%s", diff)
	}
}

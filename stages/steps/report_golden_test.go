package steps_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
	"github.com/nccllog/nccllog/stages/steps"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// stepsGolden is the steps family's Report with what its JSON leaves out: the AWK chain's
// averages, and the step span that says why a selection found nothing.
type stepsGolden struct {
	Report          steps.Report   `json:"report"`
	AWKTimeS        float64        `json:"awk_time_s"`
	AWKTFLOPs       float64        `json:"awk_tflops_per_gpu"`
	Span            steps.StepSpan `json:"span"`
	SelectedNothing bool           `json:"selected_nothing"`
}

// TestReportGolden holds the steps family's Report of each golden log, whole and of two
// selections (one the logs have, one past their end), to testdata/golden; run
// `go test ./stages/steps -update` to rewrite them after a deliberate change.
func TestReportGolden(t *testing.T) {
	for _, l := range goldentest.Logs() {
		for _, sel := range []struct {
			name  string
			steps *stages.StepRange
		}{{"", nil}, {"-steps2-4", &stages.StepRange{From: 2, To: 4}}, {"-steps90-99", &stages.StepRange{From: 90, To: 99}}} {
			t.Run(l.Name+sel.name, func(t *testing.T) {
				plan := stages.MustPlan(stages.Config{Steps: sel.steps}, all.Registry(), "steps", "stepspan")
				res := goldentest.Run(t, l, plan, nil)
				rep := steps.StepsOf(res.Set).Report()
				span, _ := steps.StepSpanOf(res.Set)
				got := stepsGolden{rep, rep.AWKTimeS, rep.AWKTFLOPs, span, span.SelectedNothing(sel.steps)}
				goldentest.Check(t, filepath.Join("testdata", "golden", l.Name+sel.name+".json"), got, *update)
			})
		}
	}
}

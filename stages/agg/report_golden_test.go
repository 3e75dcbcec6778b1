package agg_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// aggReports is what the agg family reports of a run: the stats, hist and agg commands' JSON.
type aggReports struct {
	Stats agg.StatsReport `json:"stats"`
	Hist  agg.HistReport  `json:"hist"`
	Agg   agg.Report      `json:"agg"`
}

// TestReportGolden holds the agg family's Reports of each golden log, whole and of steps 2-4,
// to testdata/golden; run `go test ./stages/agg -update` to rewrite them after a deliberate
// change. The per-op stage (stats, hist) must report the same stats and histogram.
func TestReportGolden(t *testing.T) {
	perOp := all.Registry()
	perOp.Register(agg.AggStage{PerOp: true})
	for _, l := range goldentest.Logs() {
		for _, sel := range []struct {
			name  string
			steps *stages.StepRange
		}{{"", nil}, {"-steps2-4", &stages.StepRange{From: 2, To: 4}}} {
			t.Run(l.Name+sel.name, func(t *testing.T) {
				cfg := stages.Config{Steps: sel.steps}
				a := agg.AggOf(goldentest.Run(t, l, stages.MustPlan(cfg, all.Registry(), "agg"), nil).Set)
				got := aggReports{a.StatsReport(), a.HistReport(), a.Report()}
				goldentest.Check(t, filepath.Join("testdata", "golden", l.Name+sel.name+".json"), got, *update)
				p := agg.AggOf(goldentest.Run(t, l, stages.MustPlan(cfg, perOp, "agg"), nil).Set)
				if d := cmp.Diff(got.Stats, p.StatsReport()); d != "" {
					t.Errorf("per-op stats differ (-table +per-op):\n%s", d)
				}
				if d := cmp.Diff(got.Hist, p.HistReport()); d != "" {
					t.Errorf("per-op histogram differs (-table +per-op):\n%s", d)
				}
			})
		}
	}
}

package ranks_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/ranks"
)

// TestNoVolumeSameVerdicts: the ranks stage that sums no volume (hang's, check's and
// diagnose's) gives the verdicts the full one gives, healthy and with each fault, and keeps
// no rank's bytes, which the full one does.
func TestNoVolumeSameVerdicts(t *testing.T) {
	mismatch := gen.Rank(3)
	for name, cfg := range map[string]gen.Config{
		"healthy":  {Teardown: true},
		"stop":     {StopRank: gen.Rank(5), StopAfter: 40},
		"abort":    {AbortRank: gen.Rank(5), StopRank: gen.Rank(5), StopAfter: 40},
		"mismatch": {MismatchRank: mismatch, MismatchCall: 20, MismatchKind: "count"},
		"watchdog": {WatchdogRank: gen.Rank(5), WatchdogSeq: 30},
	} {
		t.Run(name, func(t *testing.T) {
			all, dir := genLog(t, cfg, "")
			for _, in := range []string{all, dir} {
				full := analyzeRanks(t, ranks.RanksStage{}, in)
				lean := analyzeRanks(t, ranks.RanksStage{NoVolume: true}, in)
				if d := cmp.Diff(full.HangReport(), lean.HangReport()); d != "" {
					t.Errorf("hang differs without volume (-full +lean):\n%s", d)
				}
				if d := cmp.Diff(full.CheckReport(), lean.CheckReport()); d != "" {
					t.Errorf("check differs without volume (-full +lean):\n%s", d)
				}
				if bytesOf(full) == 0 {
					t.Error("the full stage summed no bytes")
				}
				if n := bytesOf(lean); n != 0 {
					t.Errorf("the stage without volume summed %d bytes", n)
				}
			}
		})
	}
}

// analyzeRanks runs the pipeline over in with s as its ranks stage.
func analyzeRanks(t *testing.T, s ranks.RanksStage, in string) *ranks.Ranks {
	t.Helper()
	reg := all.Registry()
	reg.Register(s)
	return ranks.RanksOf(runPlan(t, reg, []string{in}, 2, "ranks").Set)
}

// bytesOf is the bytes every rank of r's communicators summed.
func bytesOf(r *ranks.Ranks) int64 {
	var n int64
	for _, g := range r.Groups() {
		for _, m := range g.Members {
			for _, v := range m.ByOp {
				n += v.Bytes
			}
		}
	}
	return n
}

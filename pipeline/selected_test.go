package pipeline

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
)

// TestSelectedOnlyLikeFullRead runs step selections that read only the selected steps'
// lines against the same selections reading every line (NeedClasses): the analyses, the
// steps and the calls must be the same, every line counted, and the lines of the other
// steps really passed over. Chunks of a few lines and of a few steps, one and two workers,
// both boundaries, a prefixed and a torchtitan log.
func TestSelectedOnlyLikeFullRead(t *testing.T) {
	dir := t.TempDir()
	logs := []gen.Config{
		{Seed: 5, Steps: 30, Ranks: 4, Noise: true, Progress: "nemo"},
		{Seed: 6, Steps: 30, Ranks: 4, Noise: true, Prefix: "srun", Progress: "torchtitan"},
	}
	k := 0
	for _, lc := range logs {
		name, _ := writeLog(t, dir, lc)
		for _, rg := range []stages.StepRange{{From: 10, To: 12}, {From: 0, To: 0}, {From: 29, To: 40}, {From: 100, To: 200}} {
			for _, b := range []stages.Boundary{stages.BoundaryEnd, stages.BoundaryStart} {
				for _, needs := range []needs{needAgg, needCalls} {
					sel := testCfg{Steps: &rg, Boundary: b, Needs: needs}
					full := sel
					full.Needs |= needClasses
					want := run(Input{Name: name}, 1, 0, full)
					k++
					for si, size := range []int{700, 16 << 10} {
						for ji, jobs := range []int{1, 2} {
							if testing.Short() && (2*si+ji)%4 != k%4 {
								continue // -short: one chunking and jobs pair per selection, in turn (go test ./... reads all four)
							}
							what := fmt.Sprintf("%s steps %d-%d boundary %v needs %b chunks %d jobs %d", name, rg.From, rg.To, b, needs, size, jobs)
							got := run(Input{Name: name}, jobs, size, sel)
							compareSelected(t, what, got, want)
						}
					}
				}
			}
		}
	}
}

func compareSelected(t *testing.T, what string, got, want outcome) {
	t.Helper()
	if got.err != nil || want.err != nil {
		t.Fatalf("%s: %v / %v", what, got.err, want.err)
	}
	if got.res.Lines().Total != want.res.Lines().Total || got.res.Lines().Unread == 0 {
		t.Errorf("%s: %d lines (%d unread), want %d with some unread", what, got.res.Lines().Total, got.res.Lines().Unread, want.res.Lines().Total)
	}
	if aggOf(want.res) != nil || aggOf(got.res) != nil {
		if diff := cmp.Diff(aggOf(want.res).Rows(), aggOf(got.res).Rows()); diff != "" {
			t.Errorf("%s: aggregation (-all lines +selected):\n%s", what, diff)
		}
	}
	if diff := cmp.Diff(stepsOf(want.res).Points(), stepsOf(got.res).Points()); diff != "" {
		t.Errorf("%s: steps (-all lines +selected):\n%s", what, diff)
	}
	if diff := cmp.Diff(want.calls, got.calls); diff != "" {
		t.Errorf("%s: calls (-all lines +selected):\n%s", what, diff)
	}
}

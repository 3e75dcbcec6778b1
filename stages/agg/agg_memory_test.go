package agg_test

import (
	"testing"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// TestAggPerOpMemory: stats and hist print one row per op (and bucket), so a log of many
// distinct (op, count, datatype) costs them no more than one of a few. The full table (agg)
// does grow with them.
func TestAggPerOpMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the memory bound of 200,000 shapes runs without -short")
	}
	const n = 200_000
	shapes := func(stage agg.AggStage) func() any {
		return func() any {
			p := stage.New(&stages.Config{}).(*agg.AggPart)
			for i := range int64(n) {
				p.Agg.Add(stagetest.ShapeOps[i%4], 1+i/40, stagetest.ShapeTypes[i/4%10])
			}
			return p
		}
	}
	full := stagetest.Retained(shapes(agg.AggStage{}))
	perOp := stagetest.Retained(shapes(agg.AggStage{PerOp: true}))
	t.Logf("%d distinct shapes: %d bytes with the table, %d per op", n, full, perOp)
	if perOp > 64<<10 {
		t.Errorf("per-op sums of %d distinct shapes keep %d bytes, want under 64 KiB", n, perOp)
	}
}

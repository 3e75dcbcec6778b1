package agg_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// newPerOpAgg returns an empty Agg that keeps per-op sums only, as the stage makes it for
// commands that print per-op rows.
func newPerOpAgg() *agg.Agg {
	return agg.AggStage{PerOp: true}.New(&stages.Config{}).(*agg.AggPart).Agg
}

// TestAggPerOpLikeTable: per-op sums give the stats, histogram, left-out calls and call count
// of the full table, merged in parts (and into themselves), and through a snapshot.
func TestAggPerOpLikeTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 12))
	calls := append(randomCalls(rng, 3000), edgeCalls...)
	full := aggOf(calls)
	perOp := newPerOpAgg()
	for _, part := range splitRandom(rng, calls, 7) {
		p := newPerOpAgg()
		for _, c := range part {
			p.Add(c.op, c.count, c.datatype)
		}
		perOp.Merge(p)
	}
	same := func(what string, got, want *agg.Agg) {
		t.Helper()
		if d := cmp.Diff(want.Stats(), got.Stats()); d != "" {
			t.Errorf("%s: stats (-table +per-op):\n%s", what, d)
		}
		if d := cmp.Diff(want.Hist(agg.DefaultEdges), got.Hist(agg.DefaultEdges)); d != "" {
			t.Errorf("%s: hist (-table +per-op):\n%s", what, d)
		}
		if d := cmp.Diff(want.DroppedRows(), got.DroppedRows()); d != "" {
			t.Errorf("%s: left out (-table +per-op):\n%s", what, d)
		}
		if got.Calls() != want.Calls() {
			t.Errorf("%s: %d calls, want %d", what, got.Calls(), want.Calls())
		}
	}
	same("merged", perOp, full)
	data, err := json.Marshal((&agg.AggPart{perOp}).Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	back := &agg.AggPart{newPerOpAgg()}
	if err := stagetest.RestoreJSON(back, data); err != nil {
		t.Fatal(err)
	}
	same("restored", back.Agg, full)
	if err := stagetest.RestoreJSON((&agg.AggPart{agg.NewAgg()}), data); err == nil {
		t.Error("the table restored from per-op sums without an error")
	}
	fromTable := &agg.AggPart{newPerOpAgg()} // a partial result holds the table; stats reads it
	tableData, _ := json.Marshal((&agg.AggPart{full}).Snapshot())
	if err := stagetest.RestoreJSON(fromTable, tableData); err != nil {
		t.Fatal(err)
	}
	same("from the table", fromTable.Agg, full)
	twice := aggOf(calls)
	twice.Merge(twice)
	perOp.Merge(perOp)
	same("merged into itself", perOp, twice)
}

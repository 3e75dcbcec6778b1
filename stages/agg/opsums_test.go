package agg

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

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
	same := func(what string, got, want *Agg) {
		t.Helper()
		if d := cmp.Diff(want.Stats(), got.Stats()); d != "" {
			t.Errorf("%s: stats (-table +per-op):\n%s", what, d)
		}
		if d := cmp.Diff(want.Hist(DefaultEdges), got.Hist(DefaultEdges)); d != "" {
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
	data, err := json.Marshal((&AggPart{perOp}).Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	back := &AggPart{newPerOpAgg()}
	if err := stagetest.RestoreJSON(back, data); err != nil {
		t.Fatal(err)
	}
	same("restored", back.Agg, full)
	if err := stagetest.RestoreJSON((&AggPart{NewAgg()}), data); err == nil {
		t.Error("the table restored from per-op sums without an error")
	}
	fromTable := &AggPart{newPerOpAgg()} // a partial result holds the table; stats reads it
	tableData, _ := json.Marshal((&AggPart{full}).Snapshot())
	if err := stagetest.RestoreJSON(fromTable, tableData); err != nil {
		t.Fatal(err)
	}
	same("from the table", fromTable.Agg, full)
	twice := aggOf(calls)
	twice.Merge(twice)
	perOp.Merge(perOp)
	same("merged into itself", perOp, twice)
}

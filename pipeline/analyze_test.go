package pipeline

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/ranks"
)

// TestAnalyze: the library seam runs the families asked for over a generated job's files and
// gives each its part of the Result; a family it does not know is an error naming the ones
// it does.
func TestAnalyze(t *testing.T) {
	files, err := gen.WriteFiles(t.TempDir(), gen.Config{Seed: 5, Ranks: 4, RanksPerHost: 2, Steps: 3})
	if err != nil {
		t.Fatal(err)
	}
	var inputs []Input
	for _, f := range files {
		inputs = append(inputs, Input{Name: f})
	}
	res, err := Analyze(context.Background(), inputs, stages.Config{}, "agg", "ranks")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.Inputs); got != len(files) {
		t.Errorf("%d inputs in the result, want %d", got, len(files))
	}
	if a := agg.AggOf(res.Set); a == nil || a.Calls() == 0 {
		t.Errorf("agg: no calls counted")
	}
	r := ranks.RanksOf(res.Set)
	if r == nil || len(r.Groups()) == 0 {
		t.Fatalf("ranks: no communicator found")
	}
	for _, f := range r.Hang() {
		if len(f.Suspects) > 0 {
			t.Errorf("hang: a healthy job has suspects on %s", filepath.Base(files[0]))
		}
	}
	if _, err := Analyze(context.Background(), inputs, stages.Config{}, "nosuch"); err == nil {
		t.Errorf("a family nccllog does not have: no error")
	}
}

package ranks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/steps"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the Reports")

// discard is an Out for runs that stream nothing.
type discard struct{}

func (discard) Lines([]byte) error      { return nil }
func (discard) Call(*stages.Call) error { return nil }

// analyzed is what the family's Reports are built from: the merged ranks, and the time of
// each step that printed a finite one (as the CLI hands them to RanksReport).
type analyzed struct {
	ranks *ranks.Ranks
	times map[int64]float64
}

// analyze runs the pipeline over paths (files or folders) with the ranks and steps stages,
// as cmd/nccllog's execute does for ranks, hang and check.
func analyze(t *testing.T, paths ...string) analyzed {
	t.Helper()
	res := runPlan(t, all.Registry(), paths, 1, "ranks", "steps")
	a := analyzed{ranks: ranks.RanksOf(res.Set), times: map[int64]float64{}}
	for _, p := range steps.StepsOf(res.Set).Points() {
		if p.HasTime && !math.IsInf(p.TimeS, 0) && !math.IsNaN(p.TimeS) {
			a.times[p.Step] = p.TimeS
		}
	}
	return a
}

// runPlan runs the pipeline over paths (files or folders) with the named stages of reg on
// jobs workers.
func runPlan(t *testing.T, reg *stages.Registry, paths []string, jobs int, names ...string) *stages.Result {
	t.Helper()
	inputs, err := pipeline.Expand(paths, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := stages.NewPlan(stages.Config{}, reg, names...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.RunAll(context.Background(), inputs, pipeline.Options{Jobs: jobs, Plan: plan, Parsers: goldentest.Parsers()}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// genLog writes a generated 8-rank log with cfg's faults, once interleaved (with prefix) and
// once as one file per process, and returns the two inputs.
func genLog(t *testing.T, cfg gen.Config, prefix string) (interleaved, dir string) {
	t.Helper()
	cfg.Seed, cfg.Ranks, cfg.RanksPerHost, cfg.Steps = 3, 8, 4, 12
	tmp := t.TempDir()
	interleaved = filepath.Join(tmp, "all.log")
	f, err := os.Create(interleaved)
	if err != nil {
		t.Fatal(err)
	}
	c := cfg
	c.Prefix = prefix
	if _, err := gen.Write(f, c); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(tmp, "ranks")
	if _, err := gen.WriteFiles(dir, cfg); err != nil {
		t.Fatal(err)
	}
	return interleaved, dir
}

// eachInput runs f on cfg's log interleaved, interleaved under srun's prefix, and as one
// file per process.
func eachInput(t *testing.T, cfg gen.Config, f func(t *testing.T, a analyzed)) {
	for _, prefix := range []string{"", "srun"} {
		all, dir := genLog(t, cfg, prefix)
		t.Run("interleaved"+prefix, func(t *testing.T) { f(t, analyze(t, all)) })
		if prefix == "" {
			t.Run("per-rank-files", func(t *testing.T) { f(t, analyze(t, dir)) })
		}
	}
}

// checkGolden holds v, as JSON the way the CLI writes it, to the file at path, with the
// folder tmp (a test's temporary folder: "" for none) left out of the file names it holds;
// -update rewrites it.
func checkGolden(t *testing.T, path, tmp string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if tmp != "" {
		got = bytes.ReplaceAll(got, []byte(tmp+string(filepath.Separator)), nil)
	}
	got = append(got, '\n')
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./stages/ranks -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("Reports differ from %s (-want +got):\n%s", path, diff)
	}
}

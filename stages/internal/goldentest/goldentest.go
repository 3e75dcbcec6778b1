// Package goldentest runs logs through the pipeline for the families' golden tests (a table
// of log → .golden under stages/<family>/testdata/golden, as mtail keeps them), and holds
// what a test builds to its golden file.
package goldentest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
)

// Log is one input of a golden case: a generated job, or a file of the repository.
type Log struct {
	Name  string           // the case's name, and its golden file's
	Gen   *gen.Config      // the job to generate
	Setup *gen.SetupConfig // or the set-up log to generate; neither: read File
	File  string           // relative to the test's package
}

// SampleLog is the repository's bundled sample, seen from a stages/<family> package.
const SampleLog = "../../testdata/sample.log"

// Logs are the golden cases every family runs: the bundled sample and generated jobs of each
// framework's progress lines, with noise, and with a process per GPU pair.
func Logs() []Log {
	return []Log{
		{Name: "sample", File: SampleLog},
		{Name: "gen-nemo", Gen: &gen.Config{Seed: 1, Ranks: 4, RanksPerHost: 2, Steps: 6, Noise: true}},
		{Name: "gen-megatron", Gen: &gen.Config{Seed: 2, Ranks: 8, RanksPerHost: 4, Steps: 5, Progress: "megatron", Prefix: "srun"}},
		{Name: "gen-torchtitan", Gen: &gen.Config{Seed: 3, Ranks: 4, RanksPerHost: 4, Steps: 4, Progress: "torchtitan", Prefix: "torchrun", Noise: true}},
		{Name: "gen-noprogress", Gen: &gen.Config{Seed: 4, Ranks: 2, RanksPerHost: 2, Steps: 3, Progress: "none"}},
	}
}

// Run reads l through plan, handing what its stages stream to out (nil: nowhere), and returns
// the run's Result.
func Run(t *testing.T, l Log, plan *stages.Plan, out stages.Out) *stages.Result {
	t.Helper()
	in := pipeline.Input{Name: l.File}
	if l.Gen != nil || l.Setup != nil {
		var b bytes.Buffer
		var err error
		if l.Gen != nil {
			_, err = gen.Write(&b, *l.Gen)
		} else {
			err = gen.WriteSetup(&b, *l.Setup)
		}
		if err != nil {
			t.Fatal(err)
		}
		in = pipeline.Input{Name: "-", Stdin: &b} // named alike on every run
	}
	if out == nil {
		out = discard{}
	}
	res, err := pipeline.RunAll(context.Background(), []pipeline.Input{in}, pipeline.Options{Jobs: 2, Plan: plan, Parsers: Parsers()}, out)
	if err != nil {
		t.Fatalf("%s: %v", l.Name, err)
	}
	return res
}

// Check holds v, as indented JSON, to the golden file path; update rewrites the file.
func Check(t *testing.T, path string, v any, update bool) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to write it)", err)
	}
	if d := cmp.Diff(string(want), b.String()); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

// discard is an Out that keeps nothing.
type discard struct{}

func (discard) Lines([]byte) error      { return nil }
func (discard) Call(*stages.Call) error { return nil }

// Parsers is the pipeline.Parsers a test binary's runs share (Options.Parsers): the tests
// read the same generated logs over and over, and fresh Parsers checked the first lines of
// each shape against the grammar on every run.
var Parsers = sync.OnceValue(func() *pipeline.Parsers { return &pipeline.Parsers{} })

package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nccllog/nccllog/internal/sharedtest"
	"github.com/nccllog/nccllog/pipeline"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// runCLI runs nccllog in-process and returns its stdout, stderr and exit status.
// testParsers is the Parsers every run of the CLI in these tests borrows from (env.parsers):
// the tests read the same logs over and over, and a run's fresh Parsers checked their first
// lines of each shape against the grammar every time, a third of the package's CPU time.
var testParsers = sync.OnceValue(func() *pipeline.Parsers { return &pipeline.Parsers{} })

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, env{parsers: testParsers(), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return out.String(), errb.String(), code
}

// goldenCases returns the directories of the AWK chain's golden cases in the shared
// material (each with an input.log), skipping t where there is none (see sharedtest).
func goldenCases(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, in := range sharedtest.Glob(t, "golden/*/input.log") {
		out = append(out, filepath.Dir(in))
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAWKParity: on the golden logs, nccllog reproduces the AWK chain's outputs exactly.
func TestAWKParity(t *testing.T) {
	for _, dir := range goldenCases(t) {
		in := filepath.Join(dir, "input.log")
		checks := []struct {
			file string
			args []string
		}{
			{"stats.txt", []string{"stats", "--steps", "45-50", "--boundary", "start", "--format", "awk", in}},
			{"hist.txt", []string{"hist", "--steps", "45-50", "--boundary", "start", "--format", "awk", in}},
			{"agg.txt", []string{"agg", "--steps", "45-50", "--boundary", "start", "--format", "awk", in}},
			{"steps.txt", []string{"steps", "--steps", "45-49", "--format", "awk", in}},
			{"split.log", []string{"split", "--steps", "45-50", "--boundary", "start", in}},
		}
		for _, c := range checks {
			t.Run(filepath.Base(dir)+"/"+c.file, func(t *testing.T) {
				got, stderr, code := runCLI(t, "", c.args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				want := readFile(t, filepath.Join(dir, "awk", c.file))
				if got != want {
					t.Errorf("nccllog %s differs from the AWK chain (-awk +nccllog):\n%s", strings.Join(c.args[:len(c.args)-1], " "), cmp.Diff(want, got))
				}
			})
		}
	}
}

// expected is the shape of golden/*/expected.json.
type expected struct {
	Agg        []map[string]any `json:"agg"`
	Hist       []map[string]any `json:"hist"`
	Stats      []map[string]any `json:"stats"`
	SplitLines int              `json:"split_lines"`
	Steps      map[string]any   `json:"steps"`
}

// TestJSONParity: the JSON of every analysis carries the exact numbers of expected.json.
func TestJSONParity(t *testing.T) {
	sortRows := cmpopts.SortSlices(func(a, b map[string]any) bool { return rowKey(a) < rowKey(b) })
	for _, dir := range goldenCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var want expected
			if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "expected.json"))), &want); err != nil {
				t.Fatal(err)
			}
			in := filepath.Join(dir, "input.log")
			sel := []string{"--steps", "45-50", "--boundary", "start", "--format", "json", in}
			got := map[string][]map[string]any{}
			for cmdName, key := range map[string]string{"stats": "ops", "hist": "buckets", "agg": "groups"} {
				var v map[string][]map[string]any
				decode(t, append([]string{cmdName}, sel...), &v)
				got[cmdName] = v[key]
			}
			for name, w := range map[string][]map[string]any{"stats": want.Stats, "hist": want.Hist, "agg": want.Agg} {
				if diff := cmp.Diff(w, got[name], sortRows); diff != "" {
					t.Errorf("%s JSON differs from expected.json (-want +got):\n%s", name, diff)
				}
			}
			var steps map[string]any
			decode(t, []string{"steps", "--steps", "45-49", "--format", "json", in}, &steps)
			for _, k := range []string{"n", "avg_time_s", "avg_tflops_per_gpu"} {
				if diff := cmp.Diff(want.Steps[k], steps[k], cmpopts.EquateApprox(0, 1e-12)); diff != "" {
					t.Errorf("steps %s (-want +got):\n%s", k, diff)
				}
			}
			split, _, _ := runCLI(t, "", "split", "--steps", "45-50", "--boundary", "start", in)
			if n := strings.Count(split, "\n"); n != want.SplitLines {
				t.Errorf("split: %d lines, want %d", n, want.SplitLines)
			}
		})
	}
}

func rowKey(m map[string]any) string {
	b, _ := json.Marshal(m)
	return string(b)
}

func decode(t *testing.T, args []string, v any) {
	t.Helper()
	out, stderr, code := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("nccllog %v: exit %d: %s", args, code, stderr)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("nccllog %v: %v\n%s", args, err, out)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

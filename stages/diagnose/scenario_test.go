package diagnose_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/diagnose"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata")

type scenario struct {
	name string
	cfg  gen.Config
}

// scenarios are gen's failure scenarios, each with the launcher prefix its lines come with.
func scenarios() []scenario {
	c := func(failure, prefix string) gen.Config {
		return gen.Config{Seed: 1, Ranks: 16, RanksPerHost: 8, Steps: 4, Failure: failure, Prefix: prefix}
	}
	glue := c("shared-timeout", "")
	glue.GlueWatchdog = true
	ras := c("ras", "")
	ras.NCCLVersion = "2.26.2"
	return []scenario{
		{"exit-slurm", c("exit-slurm", "srun")}, {"exit-torchrun", c("exit-torchrun", "torchrun")},
		{"exit-mpirun", c("exit-mpirun", "mpirun")}, {"oom", c("oom", "srun")}, {"oom-bare", c("oom", "")},
		{"ib-error", c("ib-error", "")}, {"init-fail", c("init-fail", "")},
		{"shared-timeout", c("shared-timeout", "")}, {"shared-timeout-glued", glue}, {"ras", ras},
	}
}

// checkTruth checks the report's first finding against the scenario's ground truth: the
// right kind (where the parser reads the lines that tell it), rank, host and process, and
// that the other ranks' errors are folded as consequences.
func checkTruth(t *testing.T, r diagnose.Report, tr gen.Truth, failRead bool) {
	t.Helper()
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("status %s (%s), want fault", r.Status, r.Reason)
	}
	f := r.Findings[0]
	kindKnown := failRead || tr.Kind == gen.FaultNetworkError || tr.Shared
	if kindKnown && f.Kind.String() != tr.Kind.String() {
		t.Errorf("first finding is %s, want %s: %s", f.Kind, tr.Kind, f.Summary)
	}
	switch {
	case tr.Shared:
		if !f.Shared {
			t.Errorf("first finding is not shared: %s", f.Summary)
		}
	case tr.Kind == gen.FaultRASReport:
		for _, rk := range tr.Ranks {
			if !slices.Contains(f.Ranks, int64(rk)) {
				t.Errorf("first finding names ranks %v, want %v among them: %s", f.Ranks, tr.Ranks, f.Summary)
			}
		}
	default:
		proc := fmt.Sprintf("%s:%d", tr.Host, tr.PID)
		if !slices.Equal(f.Ranks, []int64{int64(tr.Rank)}) || !slices.Contains(f.Hosts, tr.Host) || !slices.Contains(f.Processes, proc) {
			t.Errorf("first finding names ranks %v hosts %v processes %v, want rank %d on %s (%s): %s",
				f.Ranks, f.Hosts, f.Processes, tr.Rank, tr.Host, proc, f.Summary)
		}
	}
	for i, o := range r.Findings[1:] {
		if o.Follows != nil {
			continue
		}
		for _, rk := range o.Ranks {
			if slices.Contains(tr.Consequences, int(rk)) {
				t.Errorf("finding %d (%s) names rank %d, a consequence, without following the first fault: %s", i+1, o.Kind, rk, o.Summary)
				break
			}
		}
	}
}

func TestScenarios(t *testing.T) {
	failRead := failureLinesRead(t)
	for i, s := range scenarios() {
		t.Run(s.name, func(t *testing.T) {
			data, tr := generate(t, s.cfg)
			r := diagnoseBytes(t, s.name+".log", data, 0)
			if s.cfg.Failure == "ras" && !failRead {
				t.Logf("RAS lines are not read yet (parser.KindFailure): the first finding is %s", r.Findings[0].Summary)
			} else {
				checkTruth(t, r, tr, failRead)
			}
			golden(t, s.name, failRead, r)
			checkWords(t, r)
			for _, chunk := range chunkSizes(i) {
				if got := diagnoseBytes(t, s.name+".log", data, chunk); !reflect.DeepEqual(got, r) {
					t.Errorf("chunks of %d bytes give another report:\n%s\nwant\n%s", chunk, js(got), js(r))
				}
			}
		})
	}
}

// chunkSizes are the chunk sizes TestScenarios reads scenario i with besides whole: 97 and
// 4096 bytes, or under -short one of them in turn.
func chunkSizes(i int) []int {
	sizes := []int{97, 4096}
	if testing.Short() {
		return sizes[i%2 : i%2+1]
	}
	return sizes
}

// TestScenariosTimed: with each line's time (a collector's, NCCL's own, glog's), the first
// finding is the same process. Under -short every other scenario takes one of the forms in turn.
func TestScenariosTimed(t *testing.T) {
	forms := []string{"iso", "nccl-all", "syslog"}
	for i, s := range scenarios() {
		for j, form := range forms {
			if testing.Short() && (i%2 != 0 || j != i/2%len(forms)) {
				continue // -short: every other scenario, in one form, each form for some (go test ./... times all in all three)
			}
			t.Run(s.name+"/"+form, func(t *testing.T) {
				c := s.cfg
				c.Timestamps = form
				data, tr := generate(t, c)
				failRead := readsFailures(t, data)
				r := diagnoseBytes(t, "timed.log", data, 0)
				if c.Failure == "ras" && !failRead {
					t.Skip("RAS lines are not read yet (parser.KindFailure)")
				}
				checkTruth(t, r, tr, failRead)
			})
		}
	}
}

// golden compares r with testdata/<name>.golden, or .nofail.golden while the parser reads no
// failure lines; -update writes it.
func golden(t *testing.T, name string, failRead bool, r diagnose.Report) {
	t.Helper()
	if !failRead {
		name += ".nofail"
	}
	path := filepath.Join("testdata", name+".golden")
	got := js(r)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) && failRead {
		t.Skipf("%s: no golden report yet for logs whose failure lines are read: run go test -update", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", path, got)
	}
}

func js(r diagnose.Report) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// checkWords: every finding has a sentence and every evidence line a text, and no sentence
// counts none of something ("0 processes") as a consequence.
func checkWords(t *testing.T, r diagnose.Report) {
	t.Helper()
	for i, f := range r.Findings {
		if f.Summary == "" || strings.Contains(f.Summary, " 0 processes") || strings.Contains(f.Summary, " 0 ranks") ||
			strings.HasPrefix(f.Summary, "0 ") {
			t.Errorf("finding %d says %q", i, f.Summary)
		}
		for _, e := range f.Evidence {
			if strings.TrimSpace(e.Text) == "" {
				t.Errorf("finding %d (%s) cites %s:%d with no text", i, f.Kind, e.File, e.Line)
			}
		}
	}
}

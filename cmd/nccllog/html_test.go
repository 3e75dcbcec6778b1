package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/chromiumtest"
	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/ranks"
)

// reportHTML runs report --html on the inputs and returns the page.
func reportHTML(t *testing.T, args ...string) (string, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.html")
	stdout, stderr, code := runCLI(t, "", append([]string{"report", "--html", out}, args...)...)
	if code != exitOK || stdout != "" {
		t.Fatalf("report --html: status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	return readFile(t, out), out
}

func TestReportHTML(t *testing.T) {
	page, _ := reportHTML(t, "../../testdata/sample.log")
	for _, want := range []string{"../../testdata/sample.log", "2,419 lines", "collective", "2,220", "AllGather",
		`id="chart-ops"`, `id="chart-hist"`, `id="chart-step-volume"`, `id="chart-step-time"`, `id="chart-ranks"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, `id="findings"`) {
		t.Error("the sample's page shows findings")
	}
}

func TestReportHTMLFindingsAndBrowser(t *testing.T) {
	in, _ := faultLog(t, gen.Config{StopRank: gen.Rank(5), StopAfter: 60, NCCLVersion: "2.23.4"}, "")
	page, file := reportHTML(t, in)
	for _, want := range []string{`id="findings"`, "rank 5 (", "score: the sum of the weights", "sequences of different lengths",
		"NCCL 2.23.4"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	exe := chromiumtest.Find(t)
	charts, png := chromiumtest.Open(t, exe, file, "light")
	if len(charts) != 5 {
		t.Errorf("%d charts drawn, want 5: %+v", len(charts), charts)
	}
	shot, err := os.MkdirTemp("", "nccllog-report-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shot, "report.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", filepath.Join(shot, "report.png"))
}

// TestReportHTMLFailedRun: a run that fails writes no page, not even half of one.
func TestReportHTMLFailedRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	_, stderr, code := runCLI(t, "", "report", "--html", out, "../../testdata/sample.log", filepath.Join(dir, "missing.log"))
	if code != exitData || !strings.Contains(stderr, "missing.log") {
		t.Errorf("status %d, stderr %q; want %d naming the missing file", code, stderr, exitData)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("a failed run left %v", left)
	}
}

// TestStepVolume: per step, StepVolume's bus bytes are StepBus's, and its calls add up to every
// call of the communicator that has a step.
func TestStepVolume(t *testing.T) {
	in, _ := faultLog(t, gen.Config{}, "")
	inputs, err := pipeline.Expand([]string{in}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "ranks")
	res, err := pipeline.RunAll(context.Background(), inputs, pipeline.Options{Plan: plan, Parsers: testParsers()}, nothing{})
	if err != nil {
		t.Fatal(err)
	}
	r := ranks.RanksOf(res.Set)
	if len(r.Groups()) == 0 {
		t.Fatal("no communicator")
	}
	for _, g := range r.Groups() {
		bus, vol := r.StepBus(g), r.StepVolume(g)
		var calls int64
		for step, v := range vol {
			calls += v.Calls
			if math.Abs(v.BusBytes-bus[step]) > 1e-6*bus[step] || v.Bytes <= 0 {
				t.Errorf("step %d: StepVolume %+v, StepBus %v", step, v, bus[step])
			}
		}
		if len(vol) != len(bus) || calls != g.MaxCalls() {
			t.Errorf("%d steps with %d calls; StepBus has %d steps, the communicator %d calls", len(vol), calls, len(bus), g.MaxCalls())
		}
	}
}

// TestReportHTMLLags: a timed job with a chronic straggler draws the arrival lag map, the
// straggler's row labelled, and Chromium draws it; the untimed sample's page says why there
// is no map in the stragglers report's own words.
func TestReportHTMLLags(t *testing.T) {
	in, _ := faultLog(t, gen.Config{Timestamps: "iso", Stragglers: []gen.Straggler{{Rank: 5, Kind: gen.StragglerChronic}}}, "")
	page, file := reportHTML(t, in)
	for _, want := range []string{`<h2 id="lags">Arrival lag by rank and step</h2>`, `id="chart-lags"`, `"rank 5 (chronic)"`,
		"<td>chronic</td>", "the median per step"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	sample, _ := reportHTML(t, "../../testdata/sample.log")
	if want := "<p>No arrival lag to show: no call line carries a time (NCCL 2.26.3&#43; prints one with"; !strings.Contains(sample, want) ||
		strings.Contains(sample, "chart-lags") {
		t.Errorf("the untimed sample's page lacks %q or draws a map", want)
	}
	charts, _ := chromiumtest.Open(t, chromiumtest.Find(t), file, "dark")
	if len(charts) != 6 || charts[5].ID != "chart-lags" {
		t.Errorf("%d charts drawn, want 6, the last the lag map: %+v", len(charts), charts)
	}
}

package htmlreport

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/diff"
	"github.com/nccllog/nccllog/stages/info"
)

// vsFixture is two runs of the fixture's job over nSteps steps: B's steps start at step 5 and
// take half as long again, B has no ReduceScatter and its ranks took longer to init.
func vsFixture(nSteps int) *Vs {
	a, b := fixture(16, nSteps), fixture(16, nSteps)
	for i := range b.Steps {
		b.Steps[i].Step += 5
		b.Steps[i].TimeS *= 1.5
	}
	b.Ops, b.Hist.Ops, b.Hist.Counts = b.Ops[:2], b.Hist.Ops[:2], b.Hist.Counts[:2]
	a.Setup.Timings = []info.TimingRow{{What: info.TimingInit, TotalS: 1.2}, {What: info.TimingInit, TotalS: 1.4}}
	b.Setup = fixtureSetup()
	b.Setup.Timings = []info.TimingRow{{What: info.TimingInit, TotalS: 3.1}, {What: info.TimingInit, TotalS: 3.3}}
	r := 1.5
	d := diff.Diff{Differences: []diff.Difference{
		{Section: diff.Init, What: "init median per rank", A: "1.4 s", B: "3.3 s", Ratio: &r},
		{Section: diff.Steps, What: "step time median", A: "2.43 s", B: "3.645 s", Ratio: &r}},
		Same: []diff.Section{diff.Identity}}
	return &Vs{Title: "nccllog diff: good.log vs bad.log", Diff: d, A: VsSide{"good.log", a}, B: VsSide{"bad.log", b}}
}

// vsChartIDs are the chart elements of the two-run page of vsFixture: two of ops, one per op
// either side has of sizes, three of steps and one of init.
var vsChartIDs = []string{"vs-ops-calls", "vs-ops-bytes", "vs-hist-0", "vs-hist-1", "vs-hist-2",
	"vs-step-time", "vs-step-flops", "vs-step-bytes", "vs-init"}

func renderVs(t *testing.T, v *Vs) string {
	t.Helper()
	var b bytes.Buffer
	if err := RenderVs(&b, v); err != nil {
		t.Fatal(err)
	}
	return strings.Replace(b.String(), echartsJS, "", 1)
}

func TestRenderVs(t *testing.T) {
	page := renderVs(t, vsFixture(20))
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]*(src|href)=`).FindString(page); m != "" {
		t.Errorf("page loads something: %s", m)
	}
	for _, id := range vsChartIDs {
		if strings.Count(page, `id="`+id+`"`) != 1 || !strings.Contains(page, `["`+id+`", {`) {
			t.Errorf("chart %s is not placed and initialised once", id)
		}
	}
	// The differences come first, in diff's order and words, with B/A as diff prints it.
	first := strings.Index(page, "<td>init</td><td>init median per rank</td><td>1.4 s -&gt; 3.3 s  (×1.5)</td>")
	second := strings.Index(page, "<td>steps</td><td>step time median</td>")
	if first < 0 || second < first || strings.Index(page, `id="vs-ops-calls"`) < second {
		t.Errorf("differences not first and in order: %d, %d", first, second)
	}
	for _, want := range []string{`"A: good.log"`, `"B: bad.log"`, colourA, colourB, "identity: same", "ReduceScatter"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// TestRenderVsOneSided: a section only one side has says so in a sentence and draws nothing;
// no differences says so and the charts are still drawn.
func TestRenderVsOneSided(t *testing.T) {
	v := vsFixture(10)
	v.B.Steps, v.B.Setup, v.Diff = nil, nil, diff.Diff{Same: diff.Sections()}
	page := renderVs(t, v)
	for _, want := range []string{"<p>no differences</p>", "Only A has steps: B has no progress line and no step of calls.",
		"Only A has init timing lines: B printed none.", `["vs-ops-calls", {`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, id := range []string{"vs-step-time", "vs-init"} {
		if strings.Contains(page, id) {
			t.Errorf("page draws %s, which only A has", id)
		}
	}
}

func TestVsAlign(t *testing.T) {
	steps := vsStepsOf([]Step{{Step: 1}, {Step: 3}}, []Step{{Step: 3}, {Step: 2}})
	var got []int64
	for _, s := range steps {
		got = append(got, s.Step)
	}
	if len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 || steps[0].B != nil || steps[1].A != nil || steps[2].A == nil || steps[2].B == nil {
		t.Errorf("steps lined up as %v: %+v", got, steps)
	}
	a := Hist{Buckets: []string{"small", "large"}, Ops: []string{"AllReduce"}, Counts: [][]int64{{1, 2}}}
	b := Hist{Buckets: []string{"small", "large"}, Ops: []string{"Send", "AllReduce"}, Counts: [][]int64{{5, 0}, {3, 4}}}
	h, err := vsHistOf(a, b)
	if err != nil || len(h.Rows) != 2 || h.Rows[0].Op != "AllReduce" || h.Rows[0].B[1] != 4 || h.Rows[1].Op != "Send" || h.Rows[1].A != nil {
		t.Errorf("histograms lined up as %+v, %v", h, err)
	}
	b.Buckets = []string{"small", "medium"}
	if _, err := vsHistOf(a, b); err == nil {
		t.Error("histograms of different buckets were lined up")
	}
}

package htmlreport

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/chromiumtest"
)

// nonFiniteFixture is a report whose steps hold inf, nan and -inf, and a finite number whose
// thousandths overflow.
func nonFiniteFixture() *Data {
	d := fixture(4, 6)
	d.Steps[2].TFLOPs = math.Inf(1)
	d.Steps[3].TimeS = math.NaN()
	d.Steps[4].TFLOPs = math.Inf(-1)
	d.Steps[5].TFLOPs = math.MaxFloat64
	return d
}

// TestRenderNonFiniteSteps: a step whose time or TFLOP/s is inf or nan (a progress line
// printed it so) leaves a gap in the step chart, which is still drawn: go-echarts wrote no
// option for a chart holding one (JSON has no such numbers), and the page's script stopped
// there, leaving that chart and the next blank. The step table prints them as inf and nan.
func TestRenderNonFiniteSteps(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, nonFiniteFixture()); err != nil {
		t.Fatal(err)
	}
	page := strings.Replace(b.String(), echartsJS, "", 1)
	for _, id := range []string{"chart-step-volume", "chart-step-time", "chart-ranks"} {
		if !strings.Contains(page, `["`+id+`", {`) {
			t.Errorf("chart %s is not initialised with an option", id)
		}
	}
	for _, cell := range []string{`<td class="n">inf</td>`, `<td class="n">nan</td>`, `<td class="n">-inf</td>`} {
		if !strings.Contains(page, cell) {
			t.Errorf("step table lacks %s", cell)
		}
	}
}

// TestChromiumDrawsNonFiniteSteps: the page of such steps draws every chart and logs no error.
func TestChromiumDrawsNonFiniteSteps(t *testing.T) {
	exe := chromiumtest.Find(t)
	file := filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := Render(f, nonFiniteFixture()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if charts, _ := chromiumtest.Open(t, exe, file, "light"); len(charts) != 6 {
		t.Errorf("%d chart containers, want 6: %+v", len(charts), charts)
	}
}

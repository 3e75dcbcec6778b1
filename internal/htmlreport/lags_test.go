package htmlreport

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/strag"
)

// TestLagSection: the page draws the lag map with the stragglers' rows labelled by kind, the
// legend's ends in ms, and says how many ranks and steps it leaves out of a large job.
func TestLagSection(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, fixture(1000, 2*zoomFrom)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<h2 id="lags">Arrival lag by rank and step</h2>`, `id="chart-lags"`, `"rank 37 (chronic)"`,
		`"rank 12 (one-off)"`, `"60.0 ms late"`, `"60.0 ms early"`, "past 10.0 ms", "The map shows 64 of 1000 ranks",
		"2 neighbouring steps share a column", `"0-1"`, "<td>chronic</td>", "<td class=\"n\">60.0 ms</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	var b2 bytes.Buffer
	if err := Render(&b2, fixture(8, 20)); err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"The map shows", "share a column"} {
		if strings.Contains(b2.String(), absent) {
			t.Errorf("a small job's map says %q", absent)
		}
	}
}

// TestLagSectionWhy: where nothing was compared, the section is the report's note in one
// sentence, and no chart.
func TestLagSectionWhy(t *testing.T) {
	d := fixture(8, 4)
	note := `no call line carries a time (NCCL 2.26.3+ prints one with NCCL_DEBUG_TIMESTAMP_LEVELS=ALL and NCCL_DEBUG_TIMESTAMP_FORMAT="[%F %T.%6f] ")`
	d.Lags = &Lags{Report: strag.StragglersReport{Stragglers: []strag.Straggler{}, UntimedCalls: 100, Note: note}}
	var b bytes.Buffer
	if err := Render(&b, d); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	want := "<p>No arrival lag to show: no call line carries a time (NCCL 2.26.3&#43; prints one with NCCL_DEBUG_TIMESTAMP_LEVELS=ALL and NCCL_DEBUG_TIMESTAMP_FORMAT=&#34;[%F %T.%6f] &#34;).</p>"
	if !strings.Contains(page, want) || strings.Contains(page, "chart-lags") {
		t.Errorf("page lacks %q or draws the map", want)
	}
	d.Lags = nil
	b.Reset()
	if err := Render(&b, d); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `id="lags"`) {
		t.Error("a report without the stragglers stage has the lag section")
	}
}

// TestLagChartOption: a series per row, named as its label; every cell is [column, row,
// seconds], within the colour scale, the scale symmetric about 0, and rows in rank order from
// the top.
func TestLagChartOption(t *testing.T) {
	l := fixtureLags(100, 30)
	c := lagChart(l)
	var o struct {
		VisualMap []struct {
			Min, Max float64
			Text     []string
		} `json:"visualMap"`
		YAxis []struct {
			Inverse bool
			Data    []any
		} `json:"yAxis"`
		Series []struct {
			Name string
			Data []struct{ Value [3]float64 }
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(formatRef.ReplaceAllString(string(c.Option), `:"js:$1"$2`)), &o); err != nil {
		t.Fatalf("the option does not parse: %v", err)
	}
	vm := o.VisualMap[0]
	if vm.Max != 0.06 || vm.Min != -0.06 || vm.Text[0] != "60.0 ms late" {
		t.Fatalf("visual map %+v", vm)
	}
	if !o.YAxis[0].Inverse || len(o.YAxis[0].Data) != 64 || o.YAxis[0].Data[0] != "rank 0" {
		t.Fatalf("y axis %+v", o.YAxis[0])
	}
	if len(o.Series) != 64 || o.Series[37].Name != "rank 37 (chronic)" {
		t.Fatalf("%d series, the 38th %q", len(o.Series), o.Series[37].Name)
	}
	for y, s := range o.Series {
		if len(s.Data) != 30 {
			t.Fatalf("row %d: %d cells", y, len(s.Data))
		}
		for _, d := range s.Data {
			if v := d.Value[2]; v < vm.Min || v > vm.Max || d.Value[0] >= 30 || d.Value[1] != float64(y) {
				t.Fatalf("row %d: cell %v", y, d.Value)
			}
		}
	}
}

func TestHumanLag(t *testing.T) {
	for ms, want := range map[float64]string{0: "0 ms", 0.004: "0.00 ms", 0.5: "0.50 ms", 12.34: "12.3 ms", 250: "250 ms",
		999.4: "999 ms", 999.6: "1.00 s", 1250: "1.25 s", -40: "-40.0 ms", 3.6e6: "3600 s"} {
		if got := humanLag(ms); got != want {
			t.Errorf("humanLag(%v) = %q, want %q", ms, got, want)
		}
	}
}

// TestLagMapBoundedPage: the largest map (64 ranks by 200 columns, every cell filled) adds
// under 400 KB to the page.
func TestLagMapBoundedPage(t *testing.T) {
	d := fixture(1000, 2*strag.MaxMapColumns)
	if len(d.Lags.Map.Rows) != strag.MaxMapRows || len(d.Lags.Map.Columns) != strag.MaxMapColumns {
		t.Fatalf("fixture map %d x %d", len(d.Lags.Map.Rows), len(d.Lags.Map.Columns))
	}
	var with, without bytes.Buffer
	if err := Render(&with, d); err != nil {
		t.Fatal(err)
	}
	d.Lags = nil
	if err := Render(&without, d); err != nil {
		t.Fatal(err)
	}
	if n := with.Len() - without.Len(); n > 400<<10 {
		t.Errorf("the map adds %d bytes", n)
	}
}

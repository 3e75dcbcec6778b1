package htmlreport

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// formatRef is a reference to one of the page's number formats in a chart's option: the
// option is JSON but for these, which the test quotes (marked "js:") to parse it.
var formatRef = regexp.MustCompile(`:(nl\w+(?:\('[^']*'\))?)([,}])`)

// chartOption is what the test reads of a chart's option.
type chartOption struct {
	XAxis []struct {
		Type string `json:"type"`
		Data []any  `json:"data"`
	} `json:"xAxis"`
	YAxis []struct {
		Type      string `json:"type"`
		AxisLabel struct {
			Formatter string `json:"formatter"`
		} `json:"axisLabel"`
	} `json:"yAxis"`
	Series []struct {
		Name    string `json:"name"`
		Tooltip struct {
			ValueFormatter string `json:"valueFormatter"`
		} `json:"tooltip"`
	} `json:"series"`
}

func parseOption(t *testing.T, id, option string) chartOption {
	t.Helper()
	var o chartOption
	if err := json.Unmarshal([]byte(formatRef.ReplaceAllString(option, `:"js:$1"$2`)), &o); err != nil {
		t.Fatalf("chart %s: option does not parse: %v\n%s", id, err, option)
	}
	return o
}

// knownFormat: f is a reference (not a string) to one of the functions the page's script
// defines.
func knownFormat(f string) bool {
	f, ok := strings.CutPrefix(f, "js:")
	if !ok {
		return false
	}
	for _, name := range pageFormats {
		if f == name || strings.HasPrefix(f, name+"(") {
			return true
		}
	}
	return false
}

// rawFloat is a label that is a number with a fraction and no unit: 198.711.
var rawFloat = regexp.MustCompile(`^-?[0-9]*\.[0-9]+$`)

// TestAxesHumanized: every value axis and every series' tooltip prints its numbers through
// one of the page's formats (a unit, k/M, ms/s), and no category label is a bare fraction:
// the per-rank chart's bins read 198.711, 216.694, ... (in an axis named "(GiB)").
func TestAxesHumanized(t *testing.T) {
	for _, d := range []*Data{fixture(1000, 2*zoomFrom), fixture(3, 5), nonFiniteFixture()} {
		for name, c := range chartsOf(d) {
			o := parseOption(t, c.ID, string(c.Option))
			if len(o.YAxis) == 0 || len(o.Series) == 0 {
				t.Errorf("chart %s: %d value axes, %d series", name, len(o.YAxis), len(o.Series))
			}
			for i, y := range o.YAxis {
				if y.Type == "value" && !knownFormat(y.AxisLabel.Formatter) {
					t.Errorf("chart %s: y axis %d labels with %q, not a page format", name, i, y.AxisLabel.Formatter)
				}
			}
			for _, s := range o.Series {
				if !knownFormat(s.Tooltip.ValueFormatter) {
					t.Errorf("chart %s: series %q tooltips with %q, not a page format", name, s.Name, s.Tooltip.ValueFormatter)
				}
			}
			for _, x := range o.XAxis {
				for _, v := range x.Data {
					label, ok := v.(string)
					if !ok || rawFloat.MatchString(label) {
						t.Errorf("chart %s: x label %v is a bare number", name, v)
					}
				}
			}
		}
	}
}

// TestPageDefinesFormats: the pages' shared script defines every format the charts name.
func TestPageDefinesFormats(t *testing.T) {
	for _, f := range pageFormats {
		if !strings.Contains(commonTmpl, "function "+f+"(") {
			t.Errorf("common.html.tmpl defines no function %s", f)
		}
	}
}

func TestBinLabel(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		lo, w float64
		want  string
	}{{198.711 * gib, 17.98 * gib, "199 GiB"}, {125.2 * gib, 0.23 * gib, "125.2 GiB"}, {125 * gib, 0.046 * gib, "125.00 GiB"},
		{0, 0.0001 * gib, "0.000 GiB"}} {
		if got := binLabel(c.lo, c.w, gib, "GiB"); got != c.want {
			t.Errorf("binLabel(%v, %v) = %q, want %q", c.lo, c.w, got, c.want)
		}
	}
	if _, err := strconv.ParseFloat(binLabel(3, 1, 1, "B"), 64); err == nil {
		t.Error("a bin label has no unit")
	}
}

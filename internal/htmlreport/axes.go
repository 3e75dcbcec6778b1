package htmlreport

import (
	"math"
	"regexp"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// numberFormat names a function of the page's script (page.html.tmpl) that prints a chart's
// number humanized and with its unit: a value axis's labels and the tooltip's values go
// through it, so that no axis reads 198.711 where 199 GiB is meant.
type numberFormat string

const (
	// fmtCount prints calls and ranks: 950, 1.2k, 3.4M.
	fmtCount numberFormat = "nlCount"
	// fmtSeconds prints a time in seconds as ms below one second, else as s.
	fmtSeconds numberFormat = "nlSeconds"
	// fmtNumber prints a rate (TFLOP/s) with three significant digits.
	fmtNumber numberFormat = "nlNumber"
)

// pageFormats are the functions the page's script defines for the formats above and fmtUnit.
var pageFormats = []string{string(fmtCount), string(fmtSeconds), string(fmtNumber), "nlUnit"}

// fmtUnit prints a value already scaled to unit (KiB, MiB, ...) followed by the unit.
func fmtUnit(unit string) numberFormat { return numberFormat("nlUnit('" + unit + "')") }

// formatMark marks a format in a chart's option, which go-echarts writes as a JSON string:
// unquote replaces the string with the script's reference to the function. (go-echarts' own
// opts.FuncOpts marker is left quoted in a snippet's option: its quotes are escaped when the
// marker is stripped.)
const formatMark = "__nccllog_format__"

var markedFormat = regexp.MustCompile(`"` + formatMark + `(nl[A-Za-z]+(?:\('[A-Za-z]+'\))?)"`)

// unquote turns the marked formats of a chart's option into references to the page's functions.
func unquote(option string) string { return markedFormat.ReplaceAllString(option, "$1") }

func (f numberFormat) js() types.FuncStr { return types.FuncStr(formatMark + string(f)) }

// axisLabel is the label of a value axis printed through f.
func axisLabel(f numberFormat) *opts.AxisLabel { return &opts.AxisLabel{Formatter: f.js()} }

// tooltipOf makes a series' tooltip print its values through f.
func tooltipOf(f numberFormat) charts.SeriesOpts {
	return charts.WithSeriesTooltipOpts(opts.SeriesTooltip{ValueFormatter: f.js()})
}

// binLabel is where a bin of the per-rank chart starts, in unit (scaled by div), with as
// many decimals as tell bins of width w apart (at most three) and the unit: "125.2 GiB".
func binLabel(lo, w, div float64, unit string) string {
	decimals := 0
	if step := w / div; step > 0 && step < 1 {
		decimals = min(3, int(math.Ceil(-math.Log10(step))))
	}
	return strconv.FormatFloat(lo/div, 'f', decimals, 64) + " " + unit
}

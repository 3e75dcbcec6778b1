package htmlreport

import (
	"fmt"
	"math"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/nccllog/nccllog/stages/strag"
)

// Lags is the stragglers family's report and its lag map: the page's "Arrival lag by rank
// and step" section.
type Lags struct {
	Report strag.StragglersReport
	Map    strag.LagMap
}

// Drawn: the map has something to draw; else the section says why in the report's note.
func (l *Lags) Drawn() bool { return len(l.Map.Rows) > 0 && len(l.Map.Columns) > 0 }

// Why is the one sentence the section shows where there is no map: the stragglers report's
// own note, as the stragglers command prints it.
func (l *Lags) Why() string {
	if l.Report.Note != "" {
		return "No arrival lag to show: " + l.Report.Note + "."
	}
	return "No arrival lag to show: no call line was compared."
}

// Rows is how many ranks the map shows, of Ranks compared.
func (l *Lags) Rows() int { return len(l.Map.Rows) }

// Threshold is the late threshold in ms or s.
func (l *Lags) Threshold() string { return humanLag(l.Report.ThresholdMs) }

// ColumnsAre names what a column is, in a sentence.
func (l *Lags) ColumnsAre() string {
	if l.Map.Axis == strag.AxisSteps {
		return "step"
	}
	return "call position (opCount: the logs have fewer than 2 steps)"
}

// axisName names the x axis: "step" or "call position (opCount)".
func (l *Lags) axisName() string {
	if l.Map.Axis == strag.AxisSteps {
		return "step"
	}
	return "call position (opCount)"
}

// lagColumns are the map's column labels: "12", or "12-14" where steps share a column.
func lagColumns(m strag.LagMap) []string {
	out := make([]string, len(m.Columns))
	for i, c := range m.Columns {
		out[i] = strconv.FormatUint(c.From, 10)
		if c.To != c.From {
			out[i] += "-" + strconv.FormatUint(c.To, 10)
		}
	}
	return out
}

// lagRows are the map's row labels, "rank 45 (chronic)"; a rank number two processes share
// names its host and pid.
func lagRows(m strag.LagMap) []string {
	seen := map[int64]int{}
	for _, r := range m.Rows {
		seen[r.Rank]++
	}
	out := make([]string, len(m.Rows))
	for i, r := range m.Rows {
		out[i] = "rank " + strconv.FormatInt(r.Rank, 10)
		if seen[r.Rank] > 1 {
			out[i] += fmt.Sprintf(" %s:%d", r.Host, r.Pid)
		}
		if r.Straggler {
			out[i] += " (" + r.Kind.String() + ")"
		}
	}
	return out
}

// lagAxis is the y axis's categories: the row labels, the stragglers' in bold red.
func lagAxis(m strag.LagMap, labels []string) []any {
	out := make([]any, len(labels))
	for i, l := range labels {
		out[i] = l
		if m.Rows[i].Straggler {
			out[i] = map[string]any{"value": l, "textStyle": map[string]any{"color": stragglerColor, "fontWeight": "bold"}}
		}
	}
	return out
}

// stragglerColor is the red of a straggler's label, read on light and dark pages alike.
const stragglerColor = "#d6453d"

// lagSpan is the colour scale's half-width in ms: the largest lag either way, the late
// threshold at least, so that on-time ranks stay pale.
func lagSpan(l *Lags) float64 {
	span := l.Report.ThresholdMs
	for _, r := range l.Map.Rows {
		for _, c := range r.Cells {
			span = max(span, math.Abs(c.LagMs))
		}
	}
	if !finite(span) || span <= 0 {
		return 1
	}
	return span
}

// lagHeight is the map's height: a row a straggler's label can be read in, for every rank.
func lagHeight(rows int) string { return strconv.Itoa(max(240, 110+14*rows)) + "px" }

// lagChart is the heatmap of the ranks' lags (in seconds, printed in ms or s), early in blue,
// late in red, on time faint grey (in either theme); the legend's ends are labelled in ms or
// s; rank 0 is on top.
func lagChart(l *Lags) chartView {
	const id = "chart-lags"
	span := lagSpan(l)
	cols, rows := lagColumns(l.Map), lagRows(l.Map)
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "100%", Height: lagHeight(len(l.Map.Rows)),
			BackgroundColor: "transparent"}),
		charts.WithAnimation(false),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Left: "150", Right: "40", Top: "50", Bottom: "60"}),
		charts.WithXAxisOpts(opts.XAxis{Name: l.axisName(), NameLocation: "middle", NameGap: 30, Type: "category", Data: cols}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: lagAxis(l.Map, rows), Inverse: opts.Bool(true), AxisLabel: &opts.AxisLabel{Interval: "0"}}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(false), Min: float32(-span / 1e3), Max: float32(span / 1e3),
			Orient: "horizontal", Left: "center", Top: "0",
			Text:    []string{humanLag(span) + " late", humanLag(span) + " early"},
			InRange: &opts.VisualMapInRange{Color: []string{"#2166ac", "rgba(150, 150, 150, 0.12)", "#b2182b"}}}),
	)
	hm.SetXAxis(cols)
	// A series per rank, named as its row: the tooltip heads a cell with its rank, then the
	// step and the lag, and the cells carry no name of their own (half the bytes of a 64 x 200 map).
	for y, r := range l.Map.Rows {
		data := make([]opts.HeatMapData, len(r.Cells))
		for i, c := range r.Cells {
			data[i] = opts.HeatMapData{Value: [3]any{c.Col, y, round6(c.LagMs / 1e3)}}
		}
		hm.AddSeries(rows[y], data, tooltipOf(fmtSeconds))
	}
	return snippet(id, hm)
}

// round6 keeps microseconds of a time in seconds.
func round6(v float64) float64 {
	if r := math.Round(v*1e6) / 1e6; finite(r) {
		return r
	}
	return v
}

package htmlreport

import (
	"html/template"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"
)

// chartView is one chart as the page template places it: go-echarts' element and option,
// initialised by the page's own script (which picks the light or dark theme).
type chartView struct {
	ID      string
	Element template.HTML
	Option  template.JS
}

// snippet renders a chart with go-echarts and keeps what the page needs of it.
func snippet(id string, r render.Renderer) chartView {
	s := r.RenderSnippet()
	return chartView{ID: id, Element: template.HTML(s.Element), Option: template.JS(unquote(s.Option))}
}

// base is the options every chart shares: its id and size, room below the plot, a transparent background (the
// page's colours show through in both themes), no animation, an axis tooltip and a legend.
func base(id string, bottom string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "100%", Height: "340px",
			BackgroundColor: "transparent"}),
		charts.WithAnimation(false),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "0"}),
		charts.WithGridOpts(opts.Grid{Left: "70", Right: "70", Top: "40", Bottom: bottom}),
	}
}

func xAxis(name string) charts.GlobalOpts {
	return charts.WithXAxisOpts(opts.XAxis{Name: name, NameLocation: "middle", NameGap: 30})
}

// yAxis is a value axis whose labels print through f.
func yAxis(name string, f numberFormat) opts.YAxis {
	return opts.YAxis{Name: name, NameLocation: "middle", NameGap: 55, Type: "value", AxisLabel: axisLabel(f)}
}

// opsChart is each op's total message bytes and its calls, on two axes.
func opsChart(ops []OpStat) chartView {
	var top float64
	for _, o := range ops {
		top = max(top, float64(o.Total))
	}
	unit, div := byteScale(top)
	names := make([]string, len(ops))
	bytes := make([]opts.BarData, len(ops))
	calls := make([]opts.BarData, len(ops))
	for i, o := range ops {
		names[i] = o.Op
		bytes[i] = opts.BarData{Value: round3(float64(o.Total) / div)}
		calls[i] = opts.BarData{Value: o.Calls}
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(base("chart-ops", "60"), xAxis("op"),
		charts.WithYAxisOpts(yAxis("total message bytes", fmtUnit(unit))))...)
	bar.ExtendYAxis(yAxis("calls", fmtCount))
	bar.SetXAxis(names).
		AddSeries("total bytes", bytes, tooltipOf(fmtUnit(unit))).
		AddSeries("calls", calls, charts.WithBarChartOpts(opts.BarChart{YAxisIndex: 1}), tooltipOf(fmtCount))
	return snippet("chart-ops", bar)
}

// histChart is the calls per message-size bucket, stacked by op.
func histChart(h Hist) chartView {
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(base("chart-hist", "60"), xAxis("message size"),
		charts.WithYAxisOpts(yAxis("calls", fmtCount)))...)
	bar.SetXAxis(h.Buckets)
	for i, op := range h.Ops {
		vals := make([]opts.BarData, len(h.Buckets))
		for j, n := range h.Counts[i] {
			vals[j] = opts.BarData{Value: n}
		}
		bar.AddSeries(op, vals, charts.WithBarChartOpts(opts.BarChart{Stack: "calls"}), tooltipOf(fmtCount))
	}
	return snippet("chart-hist", bar)
}

// zoomFrom is how many steps a step chart shows at once before it gets a zoom slider (and
// wheel zoom): a long run's thousands of steps would blur into one band.
const zoomFrom = 200

// stepZoom is the zoom of a chart over n steps: none for a short run, else a slider over the
// steps.
func stepZoom(n int) []charts.GlobalOpts {
	if n <= zoomFrom {
		return nil
	}
	end := float32(100 * zoomFrom / n)
	return []charts.GlobalOpts{charts.WithDataZoomOpts(opts.DataZoom{Type: "slider", Start: 0, End: end},
		opts.DataZoom{Type: "inside", Start: 0, End: end})}
}

// stepBottom is the room below the plot of a chart over n steps: its axis labels and name,
// and the slider.
func stepBottom(n int) string {
	if n > zoomFrom {
		return "100"
	}
	return "60"
}

func stepNames(steps []Step) []string {
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = strconv.FormatInt(s.Step, 10)
	}
	return names
}

// stepVolumeChart is what one rank moved per step (bars) and how many calls it made (line).
func stepVolumeChart(steps []Step) chartView {
	var top float64
	for _, s := range steps {
		top = max(top, float64(s.Bytes))
	}
	unit, div := byteScale(top)
	bytes := make([]opts.BarData, len(steps))
	calls := make([]opts.LineData, len(steps))
	for i, s := range steps {
		bytes[i] = opts.BarData{Value: round3(float64(s.Bytes) / div)}
		calls[i] = opts.LineData{Value: s.Calls}
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(append(base("chart-step-volume", stepBottom(len(steps))), xAxis("step"),
		charts.WithYAxisOpts(yAxis("message bytes per rank", fmtUnit(unit)))), stepZoom(len(steps))...)...)
	bar.ExtendYAxis(yAxis("calls per rank", fmtCount))
	bar.SetXAxis(stepNames(steps)).AddSeries("bytes per rank", bytes, tooltipOf(fmtUnit(unit)))
	line := charts.NewLine()
	line.SetXAxis(stepNames(steps)).AddSeries("calls per rank", calls,
		charts.WithLineChartOpts(opts.LineChart{YAxisIndex: 1}), tooltipOf(fmtCount))
	bar.Overlap(line)
	return snippet("chart-step-volume", bar)
}

// stepTimeChart is each step's time and TFLOP/s per GPU, on two axes; steps without a value,
// or with inf or nan (which JSON cannot carry: go-echarts would write no option at all and
// the page's script would stop at this chart), leave a gap.
func stepTimeChart(steps []Step) chartView {
	times := make([]opts.LineData, len(steps))
	flops := make([]opts.LineData, len(steps))
	for i, s := range steps {
		times[i] = point(s.TimeS, s.HasTime)
		flops[i] = point(s.TFLOPs, s.HasFLOPs)
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(append(base("chart-step-time", stepBottom(len(steps))), xAxis("step"),
		charts.WithYAxisOpts(yAxis("step time", fmtSeconds))), stepZoom(len(steps))...)...)
	line.ExtendYAxis(yAxis("TFLOP/s per GPU", fmtNumber))
	line.SetXAxis(stepNames(steps)).
		AddSeries("step time", times, tooltipOf(fmtSeconds)).
		AddSeries("TFLOP/s per GPU", flops, charts.WithLineChartOpts(opts.LineChart{YAxisIndex: 1}), tooltipOf(fmtNumber))
	return snippet("chart-step-time", line)
}

// point is a line chart's point for v: a gap ("-") where there is no value or it is not
// finite.
func point(v float64, has bool) opts.LineData {
	if !has || !finite(v) {
		return opts.LineData{Value: "-"}
	}
	return opts.LineData{Value: round3(v)}
}

// rankChart is how many ranks moved how much: a distribution, readable at any rank count.
func rankChart(rs []RankVolume) chartView {
	bins := rankBins(rs)
	unit, div := byteScale(bins[len(bins)-1].Hi)
	names := make([]string, len(bins))
	vals := make([]opts.BarData, len(bins))
	for i, b := range bins {
		names[i] = binLabel(b.Lo, b.Hi-b.Lo, div, unit)
		// Empty bins draw nothing; the others carry their count, so a single rank apart from
		// a thousand still shows.
		vals[i] = opts.BarData{Value: "-"}
		if b.Ranks > 0 {
			vals[i] = opts.BarData{Value: b.Ranks}
		}
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(base("chart-ranks", "60"), xAxis("bus bytes per rank, bin start"),
		charts.WithYAxisOpts(yAxis("ranks", fmtCount)))...)
	bar.SetXAxis(names).AddSeries("ranks", vals,
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "top"}), tooltipOf(fmtCount))
	return snippet("chart-ranks", bar)
}

// chartsOf is every chart that d has data for, in page order.
func chartsOf(d *Data) map[string]chartView {
	out := make(map[string]chartView)
	if len(d.Ops) > 0 {
		out["ops"] = opsChart(d.Ops)
	}
	if len(d.Hist.Ops) > 0 {
		out["hist"] = histChart(d.Hist)
	}
	if len(d.Steps) > 0 {
		// Both are placed, so that volume and time line up step by step.
		out["stepVolume"] = stepVolumeChart(d.Steps)
		out["stepTime"] = stepTimeChart(d.Steps)
	}
	if len(d.Rank) > 0 {
		out["ranks"] = rankChart(d.Rank)
	}
	if d.Lags != nil && d.Lags.Drawn() {
		out["lags"] = lagChart(d.Lags)
	}
	return out
}

package htmlreport

import (
	"github.com/nccllog/nccllog/internal/diff"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// pair is one chart of the two-run page: a value per category (op, bucket, step, kind) on
// each side, nil where a side has none (drawn as a gap).
type pair struct {
	id, x, y string
	f        numberFormat
	names    []string
	a, b     []*float64
}

// sideOpts colour a side's series, so that A and B keep their colours in every chart.
func sideOpts(colour string, f numberFormat) []charts.SeriesOpts {
	return []charts.SeriesOpts{charts.WithItemStyleOpts(opts.ItemStyle{Color: colour}),
		charts.WithLineStyleOpts(opts.LineStyle{Color: colour}), tooltipOf(f)}
}

func (p pair) global(bottom string, zoom []charts.GlobalOpts) []charts.GlobalOpts {
	return append(append(base(p.id, bottom), xAxis(p.x), charts.WithYAxisOpts(yAxis(p.y, p.f))), zoom...)
}

// bars draws the pair as bars, A's beside B's.
func (p pair) bars(v *Vs) chartView {
	bar := charts.NewBar()
	bar.SetGlobalOptions(p.global("60", nil)...)
	bar.SetXAxis(p.names).
		AddSeries(v.SeriesA(), barValues(p.a), sideOpts(colourA, p.f)...).
		AddSeries(v.SeriesB(), barValues(p.b), sideOpts(colourB, p.f)...)
	return snippet(p.id, bar)
}

// lines draws the pair as two lines over steps, zoomed as the single-run page's step charts.
func (p pair) lines(v *Vs) chartView {
	line := charts.NewLine()
	line.SetGlobalOptions(p.global(stepBottom(len(p.names)), stepZoom(len(p.names)))...)
	line.SetXAxis(p.names).
		AddSeries(v.SeriesA(), lineValues(p.a), sideOpts(colourA, p.f)...).
		AddSeries(v.SeriesB(), lineValues(p.b), sideOpts(colourB, p.f)...)
	return snippet(p.id, line)
}

func barValues(vs []*float64) []opts.BarData {
	out := make([]opts.BarData, len(vs))
	for i, v := range vs {
		out[i] = opts.BarData{Value: "-"}
		if v != nil && finite(*v) {
			out[i] = opts.BarData{Value: round3(*v)}
		}
	}
	return out
}

func lineValues(vs []*float64) []opts.LineData {
	out := make([]opts.LineData, len(vs))
	for i, v := range vs {
		out[i] = point(0, false)
		if v != nil {
			out[i] = point(*v, true)
		}
	}
	return out
}

func val(v float64) *float64 { return &v }

// vsCharts is every chart the two-run page has data for on both sides, by name.
func vsCharts(p *vsPage) map[string]chartView {
	out := map[string]chartView{}
	if len(p.A.Ops) > 0 && len(p.B.Ops) > 0 {
		out["ops-calls"], out["ops-bytes"] = vsOpsCharts(p)
	}
	if len(p.A.Hist.Ops) > 0 && len(p.B.Hist.Ops) > 0 {
		for i, r := range p.Hist.Rows {
			id := "vs-hist-" + strconv.Itoa(i)
			c := pair{id: id, x: "message size", y: r.Op + " calls", f: fmtCount, names: p.Hist.Buckets,
				a: counts(r.A, len(p.Hist.Buckets)), b: counts(r.B, len(p.Hist.Buckets))}
			out[id] = c.bars(p.Vs)
		}
	}
	if len(p.A.Steps) > 0 && len(p.B.Steps) > 0 {
		for name, c := range vsStepCharts(p) {
			out[name] = c
		}
	}
	if p.InitA() && p.InitB() {
		out["init"] = vsInitChart(p)
	}
	return out
}

// HistChart is the name of the histogram chart of the page's i-th op.
func (p *vsPage) HistChart(i int) string { return "vs-hist-" + strconv.Itoa(i) }

func counts(c []int64, n int) []*float64 {
	out := make([]*float64, n)
	for i, v := range c {
		out[i] = val(float64(v))
	}
	return out
}

// vsOpsCharts are each op's calls and total bytes on each side.
func vsOpsCharts(p *vsPage) (chartView, chartView) {
	var top float64
	for _, o := range p.Ops {
		top = max(top, float64(o.A.Total), float64(o.B.Total))
	}
	unit, div := byteScale(top)
	calls := pair{id: "vs-ops-calls", x: "op", y: "calls", f: fmtCount}
	bytes := pair{id: "vs-ops-bytes", x: "op", y: "total message bytes", f: fmtUnit(unit)}
	for _, o := range p.Ops {
		calls.names, bytes.names = append(calls.names, o.Op), append(bytes.names, o.Op)
		calls.a, calls.b = append(calls.a, opValue(o.HasA, float64(o.A.Calls))), append(calls.b, opValue(o.HasB, float64(o.B.Calls)))
		bytes.a = append(bytes.a, opValue(o.HasA, float64(o.A.Total)/div))
		bytes.b = append(bytes.b, opValue(o.HasB, float64(o.B.Total)/div))
	}
	return calls.bars(p.Vs), bytes.bars(p.Vs)
}

func opValue(has bool, v float64) *float64 {
	if !has {
		return nil
	}
	return val(v)
}

// vsStepCharts are step time, TFLOP/s per GPU and bytes per rank over the steps either side
// has, each side a line.
func vsStepCharts(p *vsPage) map[string]chartView {
	var top float64
	for _, s := range p.Steps {
		for _, x := range []*Step{s.A, s.B} {
			if x != nil {
				top = max(top, float64(x.Bytes))
			}
		}
	}
	unit, div := byteScale(top)
	time := pair{id: "vs-step-time", x: "step", y: "step time", f: fmtSeconds}
	flops := pair{id: "vs-step-flops", x: "step", y: "TFLOP/s per GPU", f: fmtNumber}
	bytes := pair{id: "vs-step-bytes", x: "step", y: "message bytes per rank", f: fmtUnit(unit)}
	for _, s := range p.Steps {
		name := strconv.FormatInt(s.Step, 10)
		time.names, flops.names, bytes.names = append(time.names, name), append(flops.names, name), append(bytes.names, name)
		time.a, time.b = append(time.a, stepValue(s.A, stepTime)), append(time.b, stepValue(s.B, stepTime))
		flops.a, flops.b = append(flops.a, stepValue(s.A, stepFLOPs)), append(flops.b, stepValue(s.B, stepFLOPs))
		perRank := func(x *Step) (float64, bool) { return float64(x.Bytes) / div, true }
		bytes.a, bytes.b = append(bytes.a, stepValue(s.A, perRank)), append(bytes.b, stepValue(s.B, perRank))
	}
	return map[string]chartView{"step-time": time.lines(p.Vs), "step-flops": flops.lines(p.Vs), "step-bytes": bytes.lines(p.Vs)}
}

func stepTime(s *Step) (float64, bool)  { return s.TimeS, s.HasTime }
func stepFLOPs(s *Step) (float64, bool) { return s.TFLOPs, s.HasFLOPs }

func stepValue(s *Step, get func(*Step) (float64, bool)) *float64 {
	if s == nil {
		return nil
	}
	if v, ok := get(s); ok {
		return val(v)
	}
	return nil
}

// vsInitChart is the median init time per rank of each kind of init line, on each side.
func vsInitChart(p *vsPage) chartView {
	c := pair{id: "vs-init", x: "init line", y: "median per rank", f: fmtSeconds}
	for _, t := range p.Init {
		c.names = append(c.names, t.Kind)
		c.a, c.b = append(c.a, initMedian(t.A)), append(c.b, initMedian(t.B))
	}
	return c.bars(p.Vs)
}

func initMedian(t *diff.InitTiming) *float64 {
	if t == nil {
		return nil
	}
	return val(t.MedianS)
}

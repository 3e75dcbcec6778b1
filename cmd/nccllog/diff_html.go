package main

import (
	"io"

	"github.com/nccllog/nccllog/internal/diff"
	"github.com/nccllog/nccllog/internal/htmlreport"
	"github.com/nccllog/nccllog/stages"
)

// writeDiffHTML writes diff --html's page: the differences, then both runs' charts together.
// It is called once both sides have been read, so that a failed run leaves no page.
func writeDiffHTML(o *options, d diff.Diff, res [2]*stages.Result) error {
	a, b := newView(o, nil, res[0]), newView(o, nil, res[1])
	v := &htmlreport.Vs{Title: "nccllog diff: " + inputNames(a) + " vs " + inputNames(b), Diff: d,
		A: htmlreport.VsSide{Name: inputNames(a), Data: vsSideData(a)},
		B: htmlreport.VsSide{Name: inputNames(b), Data: vsSideData(b)}}
	return writeOutput(o.html, func(w io.Writer) error { return htmlreport.RenderVs(w, v) })
}

// vsSideData is what the two-run page shows of one side, built as report --html builds it.
func vsSideData(r *view) *htmlreport.Data {
	d := &htmlreport.Data{Version: r.lines.Version, Lines: lineClasses(r.lines)}
	stats := r.agg.StatsReport()
	d.Ops, d.Hist, d.Dropped = opStats(stats), hist(r.agg.HistReport()), dropped(stats.Dropped)
	for _, f := range r.res.Inputs {
		d.Inputs = append(d.Inputs, htmlreport.Input{Name: f.Name, Lines: f.Lines.Total})
	}
	d.Steps = htmlSteps(r)
	d.Setup = r.info.Report()
	return d
}

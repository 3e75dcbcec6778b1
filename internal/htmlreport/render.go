package htmlreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// echartsJS is Apache ECharts 5 (npm package echarts, dist/echarts.min.js), inlined into every
// report so that it opens offline: go-echarts would load it from a CDN.
//
//go:embed assets/echarts.min.js
var echartsJS string

//go:embed page.html.tmpl
var pageTmpl string

// commonTmpl is the style and script every page shares.
//
//go:embed common.html.tmpl
var commonTmpl string

// page is what the template sees: the data, its charts and the script.
type page struct {
	*Data
	ECharts template.JS
}

// rankRows is the per-rank table: the rows it lists and how many ranks it leaves out between
// its two ends.
type rankRows struct {
	Rows   []RankVolume
	Elided int
}

// Render writes the report of d as one HTML page that loads nothing from the network.
func Render(w io.Writer, d *Data) error {
	if err := d.Hist.check(); err != nil {
		return err
	}
	return execute(w, pageTmpl, &page{Data: d, ECharts: template.JS(echartsJS)}, chartsOf(d))
}

// execute writes the page of text (a template using common.html.tmpl's style and script) for
// data, whose charts are byName.
func execute(w io.Writer, text string, data any, byName map[string]chartView) error {
	var order []chartView
	funcs := template.FuncMap{
		"count":  humanCount,
		"bytes":  func(b int64) string { return humanBytes(float64(b)) },
		"bytesf": humanBytes,
		"topN":   func() int { return topN },
		"rankTable": func(rs []RankVolume) rankRows {
			rows, elided := rankTable(rs)
			return rankRows{rows, elided}
		},
		"stepSpan": stepSpan,
		"int64":    func(n int) int64 { return int64(n) },
		"ranks":    ranksCell,
		"hosts":    hostsCell,
		"seq":      seqCell,
		"fixed":    fixed,
		"lag":      humanLag,
		"share":    func(v float64) string { return strconv.FormatFloat(100*v, 'f', 0, 64) + "%" },
		"evidence": func(f *diagnose.Finding) evidenceView {
			refs, more := evidence(f)
			return evidenceView{refs, more}
		},
		// chart places a chart's element; the script initialises the charts placed, in order.
		"chart": func(name string) (template.HTML, error) {
			c, ok := byName[name]
			if !ok {
				return "", fmt.Errorf("htmlreport: no chart %q", name)
			}
			order = append(order, c)
			return c.Element, nil
		},
		"placed": func() []chartView { return order },
	}
	t, err := template.New("page").Funcs(funcs).Parse(text)
	if err == nil {
		_, err = t.New("common").Parse(commonTmpl)
	}
	if err != nil {
		return err
	}
	return t.ExecuteTemplate(w, "page", data)
}

// seqCell is a work's number, "-" where none is known, as hang's table prints it.
func seqCell(v *int64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatInt(*v, 10)
}

// stepSpan is "A-B (N)" for the steps shown, or "none".
func stepSpan(steps []Step) string {
	if len(steps) == 0 {
		return "none"
	}
	return fmt.Sprintf("%d-%d (%d)", steps[0].Step, steps[len(steps)-1].Step, len(steps))
}

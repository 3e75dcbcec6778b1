package htmlreport

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"

	"github.com/nccllog/nccllog/internal/diff"
)

// Vs is the two-run page: diff's result first, then each section of the single-run page with
// both runs drawn together. It takes diff's Diff and each side's Data as the single-run page
// does, and only lays them out; what aligns the two sides (ops, buckets, steps and init kinds
// either has) is built here, not in the page's script.
type Vs struct {
	Title string
	Diff  diff.Diff
	A, B  VsSide
}

// VsSide is one run of the two: its name, which labels its series ("A: good.log"), and its
// data, of which the page shows Inputs, Ops, Hist, Steps and Setup's init timings.
type VsSide struct {
	Name string
	*Data
}

//go:embed vs.html.tmpl
var vsTmpl string

// Series colours of side A (blue) and B (orange): apart from each other, and readable on the
// light and the dark background.
const (
	colourA = "#3b7dd8"
	colourB = "#e8762b"
)

// vsPage is what the two-run template sees.
type vsPage struct {
	*Vs
	Ops     []vsOp
	Hist    vsHist
	Steps   []vsStep
	Init    []vsInit
	ECharts template.JS
}

// RenderVs writes the two-run page of v as one HTML page that loads nothing from the network.
func RenderVs(w io.Writer, v *Vs) error {
	for _, s := range []VsSide{v.A, v.B} {
		if s.Data == nil {
			return fmt.Errorf("htmlreport: side %q has no data", s.Name)
		}
		if err := s.Hist.check(); err != nil {
			return err
		}
	}
	h, err := vsHistOf(v.A.Hist, v.B.Hist)
	if err != nil {
		return err
	}
	p := &vsPage{Vs: v, Ops: vsOpsOf(v.A.Ops, v.B.Ops), Hist: h, Steps: vsStepsOf(v.A.Steps, v.B.Steps),
		Init: vsInitOf(v.A.Data, v.B.Data), ECharts: template.JS(echartsJS)}
	return execute(w, vsTmpl, p, vsCharts(p))
}

// SeriesA and SeriesB name each side's series: "A: good.log".
func (v *Vs) SeriesA() string { return "A: " + v.A.Name }
func (v *Vs) SeriesB() string { return "B: " + v.B.Name }

// ColourA and ColourB are the sides' colours, for the page's key.
func (v *Vs) ColourA() template.CSS { return colourA }
func (v *Vs) ColourB() template.CSS { return colourB }

// vsOp is one op's counted calls and bytes on each side; Has* false where a side has none.
type vsOp struct {
	Op         string
	HasA, HasB bool
	A, B       OpStat
}

// vsOpsOf is every op either side has: A's in A's order, then B's others in B's.
func vsOpsOf(a, b []OpStat) []vsOp {
	var out []vsOp
	at := map[string]int{}
	for _, o := range a {
		at[o.Op] = len(out)
		out = append(out, vsOp{Op: o.Op, HasA: true, A: o})
	}
	for _, o := range b {
		i, ok := at[o.Op]
		if !ok {
			i = len(out)
			out = append(out, vsOp{Op: o.Op})
		}
		out[i].HasB, out[i].B = true, o
	}
	return out
}

// vsHist is both sides' histograms on the same buckets: one row per op either side has.
type vsHist struct {
	Buckets []string
	Rows    []vsHistRow
}

// vsHistRow is one op's calls per bucket on each side; nil where a side has no such op.
type vsHistRow struct {
	Op   string
	A, B []int64
}

// vsHistOf aligns two histograms by op. Their buckets must be the same (both come from the
// one grid), unless one side has none.
func vsHistOf(a, b Hist) (vsHist, error) {
	out := vsHist{Buckets: a.Buckets}
	switch {
	case len(a.Ops) == 0:
		out.Buckets = b.Buckets
	case len(b.Ops) > 0 && !slices.Equal(a.Buckets, b.Buckets):
		return vsHist{}, fmt.Errorf("htmlreport: the sides' histograms have different buckets")
	}
	at := map[string]int{}
	for i, op := range a.Ops {
		at[op] = len(out.Rows)
		out.Rows = append(out.Rows, vsHistRow{Op: op, A: a.Counts[i]})
	}
	for i, op := range b.Ops {
		j, ok := at[op]
		if !ok {
			j = len(out.Rows)
			out.Rows = append(out.Rows, vsHistRow{Op: op})
		}
		out.Rows[j].B = b.Counts[i]
	}
	return out, nil
}

// vsStep is one step number either side has, with each side's step; nil where it lacks it.
type vsStep struct {
	Step int64
	A, B *Step
}

// vsStepsOf lines the two sides' steps up by step number.
func vsStepsOf(a, b []Step) []vsStep {
	byStep := map[int64]*vsStep{}
	var nums []int64
	put := func(s *Step, side func(*vsStep, *Step)) {
		v, ok := byStep[s.Step]
		if !ok {
			v = &vsStep{Step: s.Step}
			byStep[s.Step] = v
			nums = append(nums, s.Step)
		}
		side(v, s)
	}
	for i := range a {
		put(&a[i], func(v *vsStep, s *Step) { v.A = s })
	}
	for i := range b {
		put(&b[i], func(v *vsStep, s *Step) { v.B = s })
	}
	slices.Sort(nums)
	out := make([]vsStep, len(nums))
	for i, n := range nums {
		out[i] = *byStep[n]
	}
	return out
}

// vsInit is one kind of init line on each side, as diff compares them; nil where a side has
// none.
type vsInit struct {
	Kind string
	A, B *diff.InitTiming
}

// vsInitOf is every kind of init line either side printed, by kind.
func vsInitOf(a, b *Data) []vsInit {
	var out []vsInit
	at := map[string]int{}
	for _, t := range initTimings(a) {
		at[t.Kind] = len(out)
		out = append(out, vsInit{Kind: t.Kind, A: &t})
	}
	for _, t := range initTimings(b) {
		i, ok := at[t.Kind]
		if !ok {
			i = len(out)
			out = append(out, vsInit{Kind: t.Kind})
		}
		out[i].B = &t
	}
	slices.SortFunc(out, func(x, y vsInit) int { return cmp.Compare(x.Kind, y.Kind) })
	return out
}

func initTimings(d *Data) []diff.InitTiming {
	if d.Setup == nil {
		return nil
	}
	return diff.InitTimings(d.Setup)
}

// vsSideView is a side as the inputs' cards show it.
type vsSideView struct {
	Label string
	*Data
}

// Sides are A and B, labelled as their series.
func (v *Vs) Sides() []vsSideView {
	return []vsSideView{{v.SeriesA(), v.A.Data}, {v.SeriesB(), v.B.Data}}
}

// InitA and InitB: the side printed an init timing line.
func (p *vsPage) InitA() bool { return len(initTimings(p.A.Data)) > 0 }
func (p *vsPage) InitB() bool { return len(initTimings(p.B.Data)) > 0 }

package steps_test

import (
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/steps"
)

// TestStepSpanMerge: the span of stretches merged in any grouping is that of all their
// markers, selected or not, and an empty stretch on either side changes nothing.
func TestStepSpanMerge(t *testing.T) {
	cfg := &stages.Config{Steps: &stages.StepRange{From: 5, To: 6}}
	part := func(markers ...int64) *steps.StepSpanPart {
		p := steps.StepSpanStage{}.New(cfg).(*steps.StepSpanPart)
		for _, s := range markers {
			p.Add(&stages.Line{P: &parser.Line{Kind: parser.KindProgress, Prog: parser.Progress{Step: s}}})
			p.Settle(s, cfg.Selects(s))
		}
		return p
	}
	want := steps.StepSpan{Markers: 5, Selected: 2, First: 2, Last: 9}
	for _, parts := range [][]*steps.StepSpanPart{
		{part(7, 5, 9, 2, 6)},
		{part(), part(7, 5), part(), part(9, 2, 6)},
		{part(9), part(2, 6, 7), part(5), part()},
	} {
		total := part()
		for _, p := range parts {
			total.Merge(p)
		}
		if total.StepSpan != want {
			t.Errorf("merged span %+v, want %+v", total.StepSpan, want)
		}
	}
}

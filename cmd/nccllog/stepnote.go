package main

import (
	"fmt"
	"io"

	"github.com/nccllog/nccllog/stages/steps"
)

// noteNoSteps says on stderr why --steps selected nothing, where split or calls (the commands
// with the stepspan stage) would otherwise print nothing and exit 0 without a word: the input
// has no progress line nccllog reads, or none of a step in the range. It is a note, not an
// error: the exit status stays 0.
func noteNoSteps(w io.Writer, v *view) {
	span, ok := steps.StepSpanOf(v.res.Set)
	r := v.opts.cfg.Steps
	if !ok || !span.SelectedNothing(r) {
		return
	}
	if span.Markers == 0 {
		fmt.Fprintf(w, "nccllog: note: --steps %s selected nothing: the input has no progress line (NeMo %q, Megatron-LM %q or torchtitan %q)\n",
			rangeText(r.From, r.To), "Training epoch E, iteration N/M", "iteration N/ M", "step: N")
		return
	}
	fmt.Fprintf(w, "nccllog: note: --steps %s selected nothing: the input's progress lines are of steps %s\n",
		rangeText(r.From, r.To), rangeText(span.First, span.Last))
}

// rangeText is a range of steps as --steps takes it: "45-50", or "7" for one step.
func rangeText(from, to int64) string {
	if from == to {
		return fmt.Sprint(from)
	}
	return fmt.Sprintf("%d-%d", from, to)
}

package main

import (
	"fmt"
	"io"

	"github.com/nccllog/nccllog/stages/steps"
)

// inferSteps is what the calls say of the steps where the steps command would otherwise list
// none: no --steps, and no progress line in the input. ok is whether steps were inferred.
func inferSteps(r *view) (inf steps.Inference, ok bool) {
	cs := steps.CallStepsOf(r.res.Set)
	if cs == nil || r.opts.cfg.Steps != nil || cs.Progress > 0 || len(r.steps.Points()) > 0 {
		return steps.Inference{Why: steps.WhyNoCalls}, false
	}
	inf = cs.Infer()
	return inf, inf.Why == steps.WhyInferred
}

// inferFollowUp is the steps command's followUp: its first read takes only the progress
// lines (cheap), and where it found none and no --steps was given, a second read keeps the
// calls (callsteps) to infer the steps from. A log with progress lines is read once.
func inferFollowUp(v *view) []string {
	if v.opts.cfg.Steps != nil || len(v.steps.Points()) > 0 || steps.CallStepsOf(v.res.Set) != nil {
		return nil
	}
	return []string{steps.CallStepsStage{}.Name()}
}

// inferredHeading says where inferred steps come from, above their table.
func inferredHeading(w *output, p steps.Pattern) {
	w.printf("steps inferred from the call pattern: %d calls per step on comm %s of %s (no progress lines)\n",
		p.CallsPerStep, p.Comm, p.Process)
	w.printf("after %d warm-up calls; time (s) is the median over %d processes of each step's first call to the next step's; no TFLOP/s (no model FLOPs)\n",
		p.WarmupCalls, p.Processes)
}

// noteNotInferred says on stderr why the steps command lists no steps where the input has
// calls but no progress lines: their times cannot measure steps, or they repeat no pattern.
func noteNotInferred(w io.Writer, v *view) {
	if v.cmd == nil || v.cmd.name != "steps" {
		return
	}
	if len(v.once) > 0 && v.lines.Total > 0 { // an empty input has nothing to infer from
		fmt.Fprintln(w, "nccllog: note: no progress lines; steps are inferred from the call pattern only where the input can be read again (a file, not standard input or a pipe)")
		return
	}
	inf, ok := inferSteps(v)
	if ok {
		return
	}
	const head = "nccllog: note: no progress lines, and "
	switch inf.Why {
	case steps.WhyUntimed:
		fmt.Fprintln(w, head+"the call lines carry no time: steps are not inferred from the calls (NCCL_DEBUG_TIMESTAMP_LEVELS=ALL with a fraction in NCCL_DEBUG_TIMESTAMP_FORMAT, or a collector's timestamps, time them)")
	case steps.WhySinceInit:
		fmt.Fprintln(w, head+"the call lines carry only TRACE times (milliseconds since each process's init): steps are not inferred from them")
	case steps.WhyCoarse:
		fmt.Fprintf(w, head+"the call times have fewer than %d fraction digits: steps are not inferred (they would measure whole seconds)\n", steps.MinDigits)
	case steps.WhyNoPattern:
		fmt.Fprintf(w, head+"no call pattern repeats %d times over most of the calls: no steps inferred (nccl-tests' size sweep repeats each size, not a step)\n", steps.MinRepeats)
	}
}

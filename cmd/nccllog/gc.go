package main

import (
	"runtime/debug"
	"slices"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/ranks"
)

// heldGCPercent is the collector's target for runs that hold state growing with the input:
// the rank analyses keep each communicator's reference sequence (tens of MB over GBs of
// per-process files) and allocate little besides, so collecting at 50% growth rather than
// Go's 100% keeps their peak memory lower at no CPU cost that shows (bench/README.md).
// Commands that allocate per call (calls, exports) keep the default: for them it costs.
const heldGCPercent = 50

// gcPercent is the collector target for plan, and whether to set one: not where the user
// chose one with GOGC.
func gcPercent(plan *stages.Plan, getenv func(string) string) (int, bool) {
	if getenv("GOGC") != "" {
		return 0, false
	}
	holds := slices.ContainsFunc(plan.Stages, func(s stages.Stage) bool { return s.Name() == ranks.RanksStage{}.Name() })
	return heldGCPercent, holds
}

// tuneGC sets the collector's target for plan's run (main's env.tuneGC; tests leave it unset,
// as it is the process's).
func tuneGC(plan *stages.Plan, getenv func(string) string) {
	if p, ok := gcPercent(plan, getenv); ok {
		debug.SetGCPercent(p)
	}
}

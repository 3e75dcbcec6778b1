package pipeline

import (
	"context"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
)

// Analyze is nccllog as a library: it runs the analysis families named (as stages/all
// registers them: "agg", "steps", "ranks", "info", ...) over inputs (logs, compressed logs,
// partial results; see Expand for directories and globs) with cfg's step selection, and
// returns the merged Result. Each family reads its part of the Result (agg.AggOf(res.Set),
// ranks.RanksOf(res.Set), ...) and builds its Report from it. What streaming stages (split,
// calls) write is discarded: use RunAll with an Out for those.
func Analyze(ctx context.Context, inputs []Input, cfg stages.Config, families ...string) (*stages.Result, error) {
	return AnalyzeWith(ctx, inputs, cfg, nil, families...)
}

// AnalyzeWith is Analyze reading with ps (see Options.Parsers; nil: the run's own), for a
// caller that runs many analyses and keeps the shapes its Parsers learnt between them.
func AnalyzeWith(ctx context.Context, inputs []Input, cfg stages.Config, ps *Parsers, families ...string) (*stages.Result, error) {
	plan, err := stages.NewPlan(cfg, all.Registry(), families...)
	if err != nil {
		return nil, err
	}
	return RunAll(ctx, inputs, Options{Plan: plan, Parsers: ps}, discard{})
}

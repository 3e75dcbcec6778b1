// Package all is the registry of every analysis family nccllog runs: commands and the
// library ask it for stages by name. Adding a family is its package and one line here.
package all

import (
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/steps"
	"github.com/nccllog/nccllog/stages/strag"
	"github.com/nccllog/nccllog/stages/stream"
)

// Registry returns a registry of nccllog's stages, in the order a run's plan keeps them
// (partial results list them in that order).
func Registry() *stages.Registry {
	r := &stages.Registry{}
	r.Register(stages.LinesStage{})
	r.Register(agg.AggStage{})
	r.Register(steps.StepsStage{})
	r.Register(stream.CallsStage{})
	r.Register(stream.SplitStage{})
	r.Register(ranks.RanksStage{})
	r.Register(info.InfoStage{})
	r.Register(steps.StepSpanStage{})
	r.Register(diagnose.DiagnoseStage{})
	r.Register(strag.StragStage{})
	r.Register(steps.CallStepsStage{})
	return r
}

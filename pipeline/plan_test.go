package pipeline

import (
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/steps"
)

// needs picks stages for tests that try them in combination.
type needs uint8

const (
	needAgg needs = 1 << iota
	needCalls
	needLines
	needClasses
	needRanks
)

// testCfg is a run's step selection and the stages it needs.
type testCfg struct {
	Steps    *stages.StepRange
	Boundary stages.Boundary
	Needs    needs
}

// plan is the plan of c: the stages its needs pick, and steps.
func (c testCfg) plan() *stages.Plan {
	names := []string{"steps"}
	for _, n := range []struct {
		bit  needs
		name string
	}{{needAgg, "agg"}, {needCalls, "calls"}, {needLines, "split"}, {needRanks, "ranks"}} {
		if c.Needs&n.bit != 0 {
			names = append(names, n.name)
		}
	}
	cfg := stages.Config{Steps: c.Steps, Boundary: c.Boundary, Strict: c.Needs&needClasses != 0}
	return stages.MustPlan(cfg, all.Registry(), names...)
}

func aggOf(r *stages.Result) *agg.Agg {
	if p, ok := stages.Part[*agg.AggPart](r.Set); ok {
		return p.Agg
	}
	return nil
}

func stepsOf(r *stages.Result) *steps.Steps { return steps.StepsOf(r.Set) }

package stages_test

import (
	"testing"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
)

// needs picks stages for tests that try them in every combination.
type needs uint8

const (
	needAgg needs = 1 << iota
	needCalls
	needLines
	needClasses
	needRanks
)

// testPlan is the plan of cfg with the stages n picks, and steps.
func testPlan(cfg stages.Config, n needs) *stages.Plan {
	names := []string{"steps"}
	for bit, name := range map[needs]string{needAgg: "agg", needCalls: "calls", needLines: "split", needRanks: "ranks"} {
		if n&bit != 0 {
			names = append(names, name)
		}
	}
	cfg.Strict = cfg.Strict || n&needClasses != 0
	return stages.MustPlan(cfg, all.Registry(), names...)
}

func TestPlanNamesAndReads(t *testing.T) {
	for _, c := range []struct {
		names []string
		cfg   stages.Config
		reads stages.Reads
	}{
		{nil, stages.Config{}, stages.ReadsMarkers},
		{[]string{"steps"}, stages.Config{}, stages.ReadsMarkers},
		{[]string{"split"}, stages.Config{}, stages.ReadsBytes},
		{[]string{"agg", "calls"}, stages.Config{}, stages.ReadsSelected},
		{[]string{"ranks"}, stages.Config{}, stages.ReadsAll},
		{[]string{"split"}, stages.Config{Strict: true}, stages.ReadsAll},
	} {
		p, err := stages.NewPlan(c.cfg, all.Registry(), c.names...)
		if err != nil {
			t.Fatal(err)
		}
		if p.Reads() != c.reads {
			t.Errorf("%v %+v: reads %d, want %d", c.names, c.cfg, p.Reads(), c.reads)
		}
		if p.Stages[0].Name() != "lines" {
			t.Errorf("%v: the lines stage is not first: %v", c.names, p.Stages)
		}
	}
	if _, err := stages.NewPlan(stages.Config{}, all.Registry(), "nosuch"); err == nil {
		t.Error("a plan with an unregistered stage")
	}
}

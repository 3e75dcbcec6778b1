package stages

import "testing"

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
func testPlan(cfg Config, n needs) *Plan {
	names := []string{"steps"}
	for bit, name := range map[needs]string{needAgg: "agg", needCalls: "calls", needLines: "split", needRanks: "ranks"} {
		if n&bit != 0 {
			names = append(names, name)
		}
	}
	cfg.Strict = cfg.Strict || n&needClasses != 0
	return MustPlan(cfg, Default(), names...)
}

func TestPlanNamesAndReads(t *testing.T) {
	for _, c := range []struct {
		names []string
		cfg   Config
		reads Reads
	}{
		{nil, Config{}, ReadsMarkers},
		{[]string{"steps"}, Config{}, ReadsMarkers},
		{[]string{"split"}, Config{}, ReadsBytes},
		{[]string{"agg", "calls"}, Config{}, ReadsSelected},
		{[]string{"ranks"}, Config{}, ReadsAll},
		{[]string{"split"}, Config{Strict: true}, ReadsAll},
	} {
		p, err := NewPlan(c.cfg, Default(), c.names...)
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
	if _, err := NewPlan(Config{}, Default(), "nosuch"); err == nil {
		t.Error("a plan with an unregistered stage")
	}
}

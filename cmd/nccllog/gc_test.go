package main

import (
	"testing"

	"github.com/nccllog/nccllog/stages"
)

func TestGCPercent(t *testing.T) {
	env := func(gogc string) func(string) string {
		return func(k string) string {
			if k == "GOGC" {
				return gogc
			}
			return ""
		}
	}
	for _, c := range []struct {
		cmd, gogc string
		want      bool
	}{{"hang", "", true}, {"check", "", true}, {"ranks", "", true}, {"report", "", false}, {"calls", "", false}, {"hang", "200", false}} {
		cmd := findCommand(c.cmd)
		if cmd == nil {
			t.Fatalf("no command %s", c.cmd)
		}
		plan := stages.MustPlan(stages.Config{}, cmd.registry(), cmd.stages...)
		p, ok := gcPercent(plan, env(c.gogc))
		if ok != c.want || ok && p != heldGCPercent {
			t.Errorf("%s with GOGC=%q: %d %v, want set %v", c.cmd, c.gogc, p, ok, c.want)
		}
	}
}

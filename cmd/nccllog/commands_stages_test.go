package main

import (
	"testing"

	"github.com/nccllog/nccllog/stages/agg"
)

// TestPerOpCommandsAskForPerOpAgg: stats and hist print per-op rows, so their agg stage
// keeps per-op sums (bounded by the ops, not the distinct shapes); agg and report keep the
// table.
func TestPerOpCommandsAskForPerOpAgg(t *testing.T) {
	for name, want := range map[string]bool{"stats": true, "hist": true, "agg": false, "report": false} {
		s, ok := findCommand(name).registry().Lookup("agg")
		if !ok {
			t.Fatalf("%s: no agg stage", name)
		}
		if got := s.(agg.AggStage).PerOp; got != want {
			t.Errorf("%s: agg stage PerOp %v, want %v", name, got, want)
		}
	}
}

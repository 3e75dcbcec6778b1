package ranks

import (
	"encoding/json"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// bigStepCall is a call of rank `rank` of a two-rank communicator, in step step.
func bigStepCall(line, step, rank int64, op uint64) RankEvent {
	return RankEvent{File: "job.log", Line: line, Step: step, Kind: parser.KindCollective,
		Host: "node", Pid: 100 + rank, Dev: rank, Label: -1,
		Coll: parser.Collective{Op: "AllReduce", OpCount: op, Count: 1024, Datatype: 7, Comm: 0x55d0 + uint64(rank),
			NRanks: 2, Task: -1, GlobalRank: -1}}
}

// TestStepsPast2to31: step numbers past 2^31 (a counter of samples, or of micro-steps) keep
// their value in every rank's call sequence, also through a partial result.
func TestStepsPast2to31(t *testing.T) {
	steps := []int64{1<<31 + 7, 1<<32 + 1, 1<<32 + 1, 1<<40 + 3}
	part := &RanksPart{cfg: &stages.Config{}}
	line := int64(1)
	for i, s := range steps {
		for rank := range int64(2) {
			if rank == 1 && i == len(steps)-1 {
				continue // rank 1 stops before the last call
			}
			e := bigStepCall(line, s, rank, uint64(i))
			part.ranks().Add(e.File, &e)
			line++
		}
	}
	check := func(what string, r *Ranks) {
		t.Helper()
		gs := r.Groups()
		if len(gs) != 1 {
			t.Fatalf("%s: %d communicators, want 1", what, len(gs))
		}
		for k, want := range steps {
			if got := gs[0].StepOf(int64(k)); got != want {
				t.Errorf("%s: call %d in step %d, want %d", what, k, got, want)
			}
		}
		bus := r.StepBus(gs[0])
		if _, ok := bus[1<<40+3]; !ok || len(bus) != 3 {
			t.Errorf("%s: steps of the bus volume %v, want the 3 steps", what, bus)
		}
	}
	check("log", part.Ranks)
	data, err := json.Marshal(part.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	back := &RanksPart{cfg: &stages.Config{}}
	if err := stagetest.RestoreJSON(back, data); err != nil {
		t.Fatal(err)
	}
	check("partial", back.Ranks)
}

package ranks

import (
	"encoding/json"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// heldCalls is a settled stretch of n calls of two processes on one communicator.
func heldCalls(t *testing.T, cfg *stages.Config, n int) *RanksPart {
	p := RanksStage{}.New(cfg).(*RanksPart)
	for i := range n {
		e := RankEvent{File: "f.log", Line: int64(i + 1), Step: 3, Kind: parser.KindCollective, Host: "h",
			Pid: int64(1 + i%2), Dev: int64(i % 2), Label: -1, Coll: parser.Collective{Op: "AllReduce",
				OpCount: uint64(i / 2), Count: 8, Comm: 0xc0, NRanks: 2, GlobalRank: -1}}
		if err := p.events.addRankEvent(&e); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// The Merger folds a chunk's settled events where they lie (Fold): Ranks comes out as if it
// had taken them over and committed them, and the chunk keeps its buffer for the next one.
func TestFoldIsMergeAndCommit(t *testing.T) {
	cfg := &stages.Config{}
	want := RanksStage{}.New(cfg).(*RanksPart)
	want.Merge(heldCalls(t, cfg, 40))
	if err := want.Commit(nil); err != nil {
		t.Fatal(err)
	}
	if want.Ranks == nil || len(want.Ranks.Groups()) != 1 {
		t.Fatal("the calls made no communicator")
	}
	got := RanksStage{}.New(cfg).(*RanksPart)
	chunk := heldCalls(t, cfg, 40)
	buf := cap(chunk.events.Items)
	if ok, err := got.Fold(chunk, nil); !ok || err != nil {
		t.Fatalf("Fold = %v, %v; want it folded", ok, err)
	}
	w, _ := json.Marshal(want.Snapshot())
	g, _ := json.Marshal(got.Snapshot())
	if string(w) != string(g) {
		t.Errorf("folded:\n%s\nmerged and committed:\n%s", g, w)
	}
	if len(chunk.events.Items) != 0 || cap(chunk.events.Items) != buf {
		t.Errorf("the chunk holds %d events in %d, want none in its %d", len(chunk.events.Items), cap(chunk.events.Items), buf)
	}
	// A part that holds events of its own folds nothing: they come first.
	held := heldCalls(t, cfg, 2)
	if ok, _ := held.Fold(heldCalls(t, cfg, 2), nil); ok {
		t.Error("folded past events still held")
	}
}

package stages_test

import (
	"bytes"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
)

// countingAhead counts the markers a Merger asks its reading ahead for.
type countingAhead struct {
	stages.Ahead
	asked int
}

func (a *countingAhead) Marker(from int64) (stages.Mark, error) {
	a.asked++
	return a.Ahead.Marker(from)
}

// TestStepFreeNeedsNoReadingAhead: ranks' communicator lines fold the same in every step, so
// a log of communicator set-up (no call, no marker) waits for no marker: a Merger bounded by
// reading ahead never reads ahead, and its waiting stretch holds nothing after a chunk. Where
// calls follow the set-up, they wait for their step as before. What is merged is what an
// unbounded Merger merges, and what one bounded by spilling (which cannot hand lines on
// early: it may read them again) merges.
func TestStepFreeNeedsNoReadingAhead(t *testing.T) {
	var setup, then bytes.Buffer
	if err := gen.WriteMix(&setup, gen.MixInit, 256<<10, 1); err != nil {
		t.Fatal(err)
	}
	then.Write(setup.Bytes())
	if _, err := gen.Write(&then, gen.Config{Seed: 2, Ranks: 4, Steps: 3}); err != nil {
		t.Fatal(err)
	}
	const capBytes, chunk = 64 << 10, 16 << 10
	ps := newParsers(t, 3)
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "ranks", "diagnose")
	for _, c := range []struct {
		name  string
		data  []byte
		reads bool // reads ahead
	}{{"set-up only", setup.Bytes(), false}, {"set-up, then calls", then.Bytes(), true}} {
		want, _ := mergeChunks(t, plan, c.data, chunk, ps, nil)
		ahead := &countingAhead{Ahead: stages.NewLookahead(bytes.NewReader(c.data), ps[2], nil)}
		got, most := mergeChunks(t, plan, c.data, chunk, ps, &stages.Bound{Cap: capBytes, Ahead: ahead})
		if got != want {
			t.Errorf("%s: bounded by reading ahead, merged differs from an unbounded Merger's", c.name)
		}
		if (ahead.asked > 0) != c.reads {
			t.Errorf("%s: read ahead %d times, want reading ahead %v", c.name, ahead.asked, c.reads)
		}
		if !c.reads && most > 0 {
			t.Errorf("%s: the waiting stretch held %d bytes' worth of events after a chunk", c.name, most)
		}
		spill := &stages.Bound{Cap: capBytes, Spill: &memSpill{},
			Reread: func(d []byte) (*stages.Chunk, error) { return stages.Read(plan, d, ps[2], ps[2]), nil }}
		if got, _ := mergeChunks(t, plan, c.data, chunk, ps, spill); got != want {
			t.Errorf("%s: bounded by spilling, merged differs from an unbounded Merger's", c.name)
		}
	}
}

// newParsers returns n Parsers of their own.
func newParsers(t *testing.T, n int) []*parser.Parser {
	t.Helper()
	ps := make([]*parser.Parser, n)
	for i := range ps {
		var err error
		if ps[i], err = parser.NewParser(); err != nil {
			t.Fatal(err)
		}
	}
	return ps
}

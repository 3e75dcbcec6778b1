package ranks

import (
	"bytes"
	"errors"
	"reflect"
	"runtime"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/stream"
)

// reuseLog is a generated log of about 256 KiB: a few dozen steps of 4 ranks' calls, so that
// a chunk of it settles thousands of events into its Sel.
func reuseLog(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Seed: 7, Ranks: 4, Size: 256 << 10}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func reusePlan(names ...string) *stages.Plan {
	r := &stages.Registry{}
	r.Register(stages.LinesStage{})
	r.Register(stream.CallsStage{})
	r.Register(RanksStage{})
	return stages.MustPlan(stages.Config{}, r, names...)
}

func selRanks(t *testing.T, c *stages.Chunk) *RanksPart {
	t.Helper()
	p, ok := stages.Part[*RanksPart](c.Sel)
	if !ok {
		t.Fatal("no ranks Partial")
	}
	return p
}

// TestFoldLeavesChunkItsEvents: the Merger folds a chunk's settled events into the input's
// Ranks from the chunk's own list, which keeps its buffer for the chunk's next use (the
// Total took it and let a chunk-sized one go), and what is folded is what Merge and Commit
// fold.
func TestFoldLeavesChunkItsEvents(t *testing.T) {
	data := reuseLog(t)
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	plan := reusePlan("ranks")
	c := stages.Read(plan, data, p, nil)
	sel := selRanks(t, c)
	n, buf := len(sel.events.Items), cap(sel.events.Items)
	if n < 1000 {
		t.Fatalf("the chunk's Sel holds %d events; the test wants thousands", n)
	}
	m := stages.NewMerger(plan, "f.log", nil)
	if err := m.Add(c, data); err != nil {
		t.Fatal(err)
	}
	if err := m.Finish(); err != nil {
		t.Fatal(err)
	}
	if len(sel.events.Items) != 0 || cap(sel.events.Items) != buf {
		t.Errorf("after the merge the chunk's list holds %d events in a buffer of %d, want 0 in its own of %d",
			len(sel.events.Items), cap(sel.events.Items), buf)
	}
	total, _ := stages.Part[*RanksPart](m.Total)
	if total.Held() != 0 || cap(total.events.Items) != 0 {
		t.Errorf("the Total holds %d events in a buffer of %d, want none", total.Held(), cap(total.events.Items))
	}

	// The same chunk merged and committed as before Fold.
	ref := stages.NewSet(plan)
	c2 := stages.Read(plan, data, p, nil)
	c2.Sel.Anchor(stages.Origin{File: "f.log", Data: data})
	c2.Open.Settle(-1, true)
	c2.Open.Anchor(stages.Origin{File: "f.log", Data: data, Held: true})
	for _, s := range []*stages.Set{c2.Sel, c2.Open} {
		ref.Merge(s)
		if err := ref.Commit(nil); err != nil {
			t.Fatal(err)
		}
	}
	refRanks, _ := stages.Part[*RanksPart](ref)
	if got, want := total.Snapshot(), refRanks.Snapshot(); !reflect.DeepEqual(got, want) {
		t.Error("the events folded from the chunk differ from those merged and committed")
	}
}

// TestChunksKeptForReuse: a released chunk is reused by the plan's next one after
// collections (a sync.Pool lost it every other one, and a chunk made anew grew its lists
// again); a chunk made while none is free makes room for the events an earlier chunk held;
// and the chunks are let go when the run ends.
func TestChunksKeptForReuse(t *testing.T) {
	data := reuseLog(t)
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	plan := reusePlan("ranks")
	c := stages.Read(plan, data, p, nil)
	held := selRanks(t, c).Held()
	fresh := stages.NewChunk(plan) // c is not released: none is free
	if fresh == c {
		t.Fatal("a chunk in use was handed out again")
	}
	if got := cap(selRanks(t, fresh).events.Items); got < held {
		t.Errorf("a new chunk's Sel has room for %d events; an earlier chunk held %d", got, held)
	}
	m := stages.NewMerger(plan, "f.log", nil)
	if err := m.Add(c, data); err != nil {
		t.Fatal(err)
	}
	c.Release()
	runtime.GC()
	runtime.GC()
	if again := stages.NewChunk(plan); again != c {
		t.Error("the released chunk was not reused after two collections")
	}
	fresh.Release()
	plan.ReleaseChunks()
	if again := stages.NewChunk(plan); again == fresh {
		t.Error("a chunk was reused after the plan let its chunks go")
	}
}

// failingOut fails every call it is given.
type failingOut struct{}

func (failingOut) Lines([]byte) error      { return nil }
func (failingOut) Call(*stages.Call) error { return errors.New("write failed") }

// TestMergeCommitFailedLeavesEventsHeld: where a Partial before ranks fails to commit (calls,
// whose output failed), the events of the stretch are left merged and held as Merge and
// Commit leave them, not folded.
func TestMergeCommitFailedLeavesEventsHeld(t *testing.T) {
	data := reuseLog(t)
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	plan := reusePlan("calls", "ranks")
	c := stages.Read(plan, data, p, nil)
	c.Sel.Anchor(stages.Origin{File: "f.log", Data: data})
	n := selRanks(t, c).Held()
	total := stages.NewSet(plan)
	if err := total.MergeCommit(c.Sel, failingOut{}); err == nil {
		t.Fatal("the failed write was not reported")
	}
	tr, _ := stages.Part[*RanksPart](total)
	if tr.Held() != n || tr.Ranks != nil {
		t.Errorf("the Total holds %d events (folded: %v), want the stretch's %d held", tr.Held(), tr.Ranks != nil, n)
	}
}

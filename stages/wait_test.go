package stages_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"unsafe"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/ranks"
	"github.com/nccllog/nccllog/stages/stream"
)

// memSpill is a Spill in memory, for tests.
type memSpill struct{ b []byte }

func (s *memSpill) Write(b []byte) error { s.b = append(s.b, b...); return nil }
func (s *memSpill) Forget() error        { s.b = s.b[:0]; return nil }
func (s *memSpill) Replay(fn func([]byte) error) error {
	defer s.Forget()
	for len(s.b) > 0 {
		n := parser.WholeLines(s.b[:min(len(s.b), 50<<10)])
		if n == 0 {
			n = len(s.b)
		}
		if err := fn(s.b[:n]); err != nil {
			return err
		}
		s.b = s.b[n:]
	}
	return nil
}

// written keeps what a Merger writes.
type written struct {
	lines []byte
	calls []stages.Call
}

func (w *written) Lines(b []byte) error      { w.lines = append(w.lines, b...); return nil }
func (w *written) Call(c *stages.Call) error { w.calls = append(w.calls, *c); return nil }

// heldBytes is what the waiting Partials of s hold: the bytes of split's lines, and calls and
// rank events at their size.
func heldBytes(s *stages.Set) int64 {
	var n int64
	for _, p := range s.Parts {
		switch p := p.(type) {
		case *stream.SplitPart:
			n += p.Snapshot().(stream.SplitSnapshot).Held
		case *stream.CallsPart:
			n += int64(p.Held()) * int64(unsafe.Sizeof(stages.Call{}))
		case *ranks.RanksPart:
			n += int64(p.Held()) * int64(unsafe.Sizeof(ranks.RankEvent{}))
		}
	}
	return n
}

// TestWaitingStaysUnderCap feeds a log whose last progress line is step 1's, followed by
// 4 MiB of calls, to Mergers bounded at 64 KiB by reading ahead and by spilling, chunk by
// chunk: what the waiting stretch holds after any chunk stays within a few times the cap and
// a chunk (unbounded, it held the 4 MiB's calls or bytes), and what is written and merged is
// what an unbounded Merger writes and merges.
func TestWaitingStaysUnderCap(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a memory bound over a 4 MiB generated log")
	}
	t.Parallel() // independent of the other tests: its own parser and data
	var log bytes.Buffer
	if _, err := gen.Write(&log, gen.Config{Seed: 1, Ranks: 4, Steps: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(&log, gen.Config{Seed: 2, Ranks: 4, Size: 4 << 20, Progress: "none"}); err != nil {
		t.Fatal(err)
	}
	data := log.Bytes()
	const capBytes, chunk = 64 << 10, 16 << 10
	ps := newParsers(t, 3)
	one := &stages.StepRange{From: 1, To: 1}
	for _, c := range []struct {
		stage string
		steps *stages.StepRange
	}{{"split", one}, {"calls", one}, {"calls", nil}, {"ranks", nil}} {
		plan := stages.MustPlan(stages.Config{Steps: c.steps}, all.Registry(), c.stage)
		want, whole := mergeChunks(t, plan, data, chunk, ps, nil)
		if whole < 1<<20 {
			t.Fatalf("%s: unbounded, the stretch held only %d KiB; the test needs it to wait long", c.stage, whole>>10)
		}
		for _, mode := range []string{"ahead", "spill"} {
			b := stages.Bound{Cap: capBytes}
			if mode == "ahead" {
				b.Ahead = stages.NewLookahead(bytes.NewReader(data), ps[2], nil)
			} else {
				b.Spill = &memSpill{}
				b.Reread = func(d []byte) (*stages.Chunk, error) { return stages.Read(plan, d, ps[2], ps[2]), nil }
			}
			what := fmt.Sprintf("%s (steps %v), %s", c.stage, c.steps != nil, mode)
			got, most := mergeChunks(t, plan, data, chunk, ps, &b)
			if got != want {
				t.Errorf("%s: written and merged differ from an unbounded Merger's", what)
			}
			t.Logf("%s: held at most %d KiB", what, most>>10)
			if most > 3*(capBytes+chunk) {
				t.Errorf("%s: held %d KiB, over 3 times the cap and a chunk (%d KiB)", what, most>>10, (capBytes+chunk)>>10)
			}
		}
	}
}

// mergeChunks reads data in chunks of whole lines of about size bytes through a Merger
// bounded by b (unbounded where nil), and returns what it wrote and merged, and the most the
// waiting stretch held after a chunk.
func mergeChunks(t *testing.T, plan *stages.Plan, data []byte, size int, ps []*parser.Parser, b *stages.Bound) (string, int64) {
	t.Helper()
	out := &written{}
	m := stages.NewMerger(plan, "hung.log", out)
	if b != nil {
		m.Bound(*b)
	}
	var most int64
	for off := 0; off < len(data); {
		end := min(off+size, len(data))
		if n := parser.WholeLines(data[off:end]); n > 0 && end < len(data) {
			end = off + n
		}
		if err := m.Add(stages.Read(plan, data[off:end], ps[0], ps[1]), data[off:end]); err != nil {
			t.Fatal(err)
		}
		most = max(most, heldBytes(m.Pending())+m.Waiting().Kept)
		off = end
	}
	if err := m.Finish(); err != nil {
		t.Fatal(err)
	}
	snaps := map[string]any{"lines": len(out.lines), "calls": out.calls}
	for i, st := range plan.Stages {
		snaps[st.Name()] = m.Total.Parts[i].Snapshot()
	}
	j, err := json.Marshal(snaps)
	if err != nil {
		t.Fatal(err)
	}
	return string(j) + string(out.lines), most
}

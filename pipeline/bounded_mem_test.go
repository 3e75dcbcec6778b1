package pipeline

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
)

// retainedBy runs run with the heap collected before and after it, and returns how many
// heap bytes what it returns keeps alive: a count the collector's timing cannot change.
func retainedBy(run func() any) (any, int64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := run()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return v, int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// noProgressAfter writes a log of two steps followed by about size bytes of calls that no
// progress line ends (a job that hung, or logs whose progress lines went elsewhere), and
// returns its name.
func noProgressAfter(t *testing.T, size int64) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "hung.log")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	if _, err := gen.Write(w, gen.Config{Seed: 1, Steps: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(w, gen.Config{Seed: 2, Size: size, Progress: "none"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestWaitingHeldBounded: the stages of split --steps 1, calls --steps 1, calls, hang and
// check (ranks) and report over 64 MiB that no progress line closes, from a file and from
// standard input, and over a job's per-process files (only rank 0's has progress lines),
// hold no more while lines wait for their step than the lines of the wait cap and two chunks
// would make, and keep little once the run is over (split --steps 1 and calls --steps 1 had
// 65-164 MiB of heap in use). What is measured is what the Merger holds after each chunk
// and the heap the Result keeps after a collection, not a sampled peak: the same on a busy
// machine as on an idle one.
func TestWaitingHeldBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("the memory bound of a 64 MiB log read eleven ways runs without -short")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes heap sizes meaningless")
	}
	const (
		window   = stages.WaitCap + 2*DefaultChunkSize // what may wait before it is bounded
		minLine  = 64                                  // the generator's shortest call or progress line, with margin
		maxItems = window / minLine
		kept     = 8 << 20 // the Result of a 64 MiB log: counts, and 2,048 calls a rank
	)
	hung := noProgressAfter(t, 64<<20)
	files, err := gen.WriteFiles(t.TempDir(), gen.Config{Seed: 3, Size: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	one := rangeOf(1, 1)
	for _, c := range []struct {
		stages []string
		steps  *stages.StepRange
		input  string // hung, stdin (hung, from standard input) or files
	}{
		{[]string{"split"}, one, "hung"}, {[]string{"split"}, one, "stdin"},
		{[]string{"calls"}, one, "hung"}, {[]string{"calls"}, one, "stdin"},
		{[]string{"calls"}, nil, "hung"}, {[]string{"calls"}, nil, "stdin"},
		{[]string{"ranks"}, nil, "hung"}, {[]string{"ranks"}, nil, "stdin"}, {[]string{"ranks"}, nil, "files"},
		{[]string{"agg", "steps"}, nil, "hung"}, {[]string{"agg", "steps"}, nil, "files"},
	} {
		what := fmt.Sprintf("%v over %s", c.stages, c.input)
		if c.steps != nil {
			what = fmt.Sprintf("%v --steps %d over %s", c.stages, c.steps.From, c.input)
		}
		plan := stages.MustPlan(stages.Config{Steps: c.steps}, all.Registry(), c.stages...)
		inputs := waitingInputs(t, c.input, hung, files)
		var most stages.Waiting
		merged := func(m *stages.Merger) {
			w := m.Waiting()
			most.Items, most.Kept = max(most.Items, w.Items), max(most.Kept, w.Kept)
		}
		rec := &countingOut{}
		var err error
		v, heap := retainedBy(func() any {
			var res *stages.Result
			res, err = RunAll(context.Background(), inputs, Options{Jobs: 2, Plan: plan, merged: merged}, rec)
			return res
		})
		if err != nil {
			t.Fatal(err)
		}
		res := v.(*stages.Result)
		t.Logf("%s: at most %d values and %d bytes waiting; the result keeps %d KiB; wrote %d bytes, %d calls",
			what, most.Items, most.Kept, heap>>10, rec.bytes, rec.calls)
		if res.Lines().Total == 0 || c.steps != nil && rec.bytes == 0 && rec.calls == 0 {
			t.Errorf("%s: read %d lines and wrote nothing", what, res.Lines().Total)
		}
		if most.Items > maxItems || most.Kept > window {
			t.Errorf("%s: %d values and %d bytes waited for a step, over %d and %d", what, most.Items, most.Kept, maxItems, window)
		}
		if heap > kept {
			t.Errorf("%s: the result keeps %d KiB, over %d KiB", what, heap>>10, kept>>10)
		}
	}
}

// waitingInputs is the inputs of TestWaitingHeldBounded: hung, hung from standard input, or
// the job's files.
func waitingInputs(t *testing.T, input, hung string, files []string) []Input {
	switch input {
	case "hung":
		return []Input{{Name: hung}}
	case "stdin":
		f, err := os.Open(hung)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return []Input{{Name: "-", Stdin: f}}
	}
	var inputs []Input
	for _, f := range files {
		inputs = append(inputs, Input{Name: f})
	}
	return inputs
}

// countingOut counts what a run writes, keeping none of it.
type countingOut struct{ bytes, calls int64 }

func (c *countingOut) Lines(b []byte) error    { c.bytes += int64(len(b)); return nil }
func (c *countingOut) Call(*stages.Call) error { c.calls++; return nil }

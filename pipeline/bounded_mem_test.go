package pipeline

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
)

// livePeak collects garbage every few milliseconds and samples the live heap it finds until
// stop is called, which returns the highest sample. Unlike the heap in use, it leaves out
// garbage not collected yet, which grows as a loaded machine delays the collector.
func livePeak() (stop func() uint64) {
	var (
		peak uint64
		wg   sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			runtime.GC() // a whole collection: what it finds live is what the run holds
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
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
// keep the live heap far below what holding those lines, their calls or their rank events
// would take (split --steps 1 and calls --steps 1 had 65-164 MiB of heap in use).
func TestWaitingHeldBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes heap sizes meaningless")
	}
	const limit = 48 << 20
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
		var inputs []Input
		switch c.input {
		case "hung":
			inputs = []Input{{Name: hung}}
		case "stdin":
			f, err := os.Open(hung)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			inputs = []Input{{Name: "-", Stdin: f}}
		case "files":
			for _, f := range files {
				inputs = append(inputs, Input{Name: f})
			}
		}
		runtime.GC()
		stop := livePeak()
		rec := &countingOut{}
		res, err := RunAll(context.Background(), inputs, Options{Jobs: 2, Plan: plan}, rec)
		peak := stop()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: peak live heap %d MiB; wrote %d bytes, %d calls", what, peak>>20, rec.bytes, rec.calls)
		if res.Lines().Total == 0 || c.steps != nil && rec.bytes == 0 && rec.calls == 0 {
			t.Errorf("%s: read %d lines and wrote nothing", what, res.Lines().Total)
		}
		if peak > limit {
			t.Errorf("%s: peak live heap %d MiB, over %d MiB", what, peak>>20, limit>>20)
		}
	}
}

// countingOut counts what a run writes, keeping none of it.
type countingOut struct{ bytes, calls int64 }

func (c *countingOut) Lines(b []byte) error    { c.bytes += int64(len(b)); return nil }
func (c *countingOut) Call(*stages.Call) error { c.calls++; return nil }

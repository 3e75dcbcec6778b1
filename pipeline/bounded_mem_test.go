package pipeline

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
)

// heapPeak samples the heap in use every few milliseconds until stop is called, which
// returns the highest sample.
func heapPeak() (stop func() uint64) {
	var (
		peak uint64
		wg   sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
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

// TestWaitingHeldBounded: split --steps 1 and calls --steps 1 over 64 MiB that no progress
// line closes, from a file and from standard input, keep the heap in use far below what
// holding those lines or their calls would take (64 MiB of bytes; more in calls).
func TestWaitingHeldBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes heap sizes meaningless")
	}
	// Garbage is collected early, so that the heap in use is close to what is live.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	const limit = 40 << 20
	name := noProgressAfter(t, 64<<20)
	for _, stage := range []string{"split", "calls"} {
		plan := stages.MustPlan(stages.Config{Steps: rangeOf(1, 1)}, stages.Default(), stage)
		for _, stdin := range []bool{false, true} {
			in := Input{Name: name}
			if stdin {
				f, err := os.Open(name)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				in = Input{Name: "-", Stdin: f}
			}
			runtime.GC()
			stop := heapPeak()
			rec := &countingOut{}
			_, err := Run(context.Background(), in, Options{Jobs: 2, Plan: plan}, rec)
			peak := stop()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s --steps 1 %s: peak heap in use %d MiB; wrote %d bytes, %d calls",
				stage, in.DisplayName(), peak>>20, rec.bytes, rec.calls)
			if rec.bytes == 0 && rec.calls == 0 {
				t.Errorf("%s --steps 1 %s: wrote nothing of step 1", stage, in.DisplayName())
			}
			if peak > limit {
				t.Errorf("%s --steps 1 %s: peak heap in use %d MiB, over %d MiB", stage, in.DisplayName(), peak>>20, limit>>20)
			}
		}
	}
}

// countingOut counts what a run writes, keeping none of it.
type countingOut struct{ bytes, calls int64 }

func (c *countingOut) Lines(b []byte) error    { c.bytes += int64(len(b)); return nil }
func (c *countingOut) Call(*stages.Call) error { c.calls++; return nil }

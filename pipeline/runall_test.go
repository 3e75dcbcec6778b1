package pipeline

import (
	"context"
	"math"
	"os"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
)

// TestRunAllLikeRun reads a job's per-process files as RunAll does, whose workers share
// their Parsers from one input to the next, ordered (a plan that streams calls) and not,
// with one and two workers: every input's result must be the one a Run of that input alone
// gives, and its parser Stats must count that input's lines only. The merged Result is the
// merge of those, in input order.
func TestRunAllLikeRun(t *testing.T) {
	files, err := gen.WriteFiles(t.TempDir(), gen.Config{Seed: 3, Ranks: 12, RanksPerHost: 4, Steps: 6, Noise: true})
	if err != nil {
		t.Fatal(err)
	}
	inputs := make([]Input, len(files))
	for i, f := range files {
		inputs[i] = Input{Name: f}
	}
	for _, jobs := range []int{1, 2} {
		for _, ordered := range []bool{false, true} {
			cfg := testCfg{Needs: needAgg | needRanks}
			if ordered {
				cfg.Needs |= needCalls
			}
			opt := Options{Jobs: jobs, ChunkSize: 4 << 10, Plan: cfg.plan(), Parsers: sharedParsers()}
			if opt.Plan.Streams() != ordered {
				t.Fatalf("plan %+v: Streams() = %v", cfg, !ordered)
			}
			all := make([]*stages.Result, len(inputs))
			err := runEach(context.Background(), inputs, opt, discard{}, func(i int, r *stages.Result) { all[i] = r })
			if err != nil {
				t.Fatal(err)
			}
			merged, err := RunAll(context.Background(), inputs, opt, discard{})
			if err != nil {
				t.Fatal(err)
			}
			want := stages.NewResult(opt.Plan)
			for i, in := range inputs {
				alone, err := Run(context.Background(), in, opt, discard{})
				if err != nil {
					t.Fatal(err)
				}
				want.Merge(alone)
				got := all[i]
				if diff := cmp.Diff(alone.Inputs, got.Inputs); diff != "" {
					t.Errorf("jobs=%d ordered=%v %s: lines (-alone +RunAll):\n%s", jobs, ordered, in.Name, diff)
				}
				if diff := cmp.Diff(aggOf(alone).Rows(), aggOf(got).Rows()); diff != "" {
					t.Errorf("jobs=%d ordered=%v %s: aggregation (-alone +RunAll):\n%s", jobs, ordered, in.Name, diff)
				}
				if got.Parse.Lines != countLines(mustRead(t, in.Name)) || got.Parse.Disagree != 0 {
					t.Errorf("jobs=%d ordered=%v %s: parser stats %+v, want the file's %d lines and no disagreement",
						jobs, ordered, in.Name, got.Parse, countLines(mustRead(t, in.Name)))
				}
			}
			if diff := cmp.Diff(want.Inputs, merged.Inputs); diff != "" {
				t.Errorf("jobs=%d ordered=%v: merged inputs (-merged alone +RunAll):\n%s", jobs, ordered, diff)
			}
			if diff := cmp.Diff(aggOf(want).Rows(), aggOf(merged).Rows()); diff != "" {
				t.Errorf("jobs=%d ordered=%v: merged aggregation (-merged alone +RunAll):\n%s", jobs, ordered, diff)
			}
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRunAllJobsBounded: a huge Jobs costs what MaxJobs workers cost, not a worker, a Parser
// and buffers for each job asked for (--jobs 1000000000 crashed the runtime).
func TestRunAllJobsBounded(t *testing.T) {
	f := t.TempDir() + "/one.log"
	if err := os.WriteFile(f, []byte("a line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []Input{{Name: f}, {Name: f}}
	opt := Options{Plan: testCfg{Needs: needAgg}.plan()}
	// The least of three runs: TotalAlloc counts the whole process, and tests running in
	// parallel with this one allocate too.
	alloc := func(jobs int) uint64 {
		least := uint64(math.MaxUint64)
		for range 3 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			opt.Jobs = jobs
			if _, err := RunAll(context.Background(), inputs, opt, discard{}); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			least = min(least, after.TotalAlloc-before.TotalAlloc)
		}
		return least
	}
	capped := alloc(MaxJobs())
	if huge := alloc(200_000); huge > 2*capped+1<<20 {
		t.Errorf("Jobs 200000 allocated %d bytes, Jobs %d (MaxJobs) %d: the job count is not capped", huge, MaxJobs(), capped)
	}
}

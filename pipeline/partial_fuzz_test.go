package pipeline

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/all"
)

// partialFuzzMax is the largest input FuzzPartial checks allocation on, and partialFuzzAlloc
// the most decoding one may allocate: a partial of a few KB must not make a run hold more
// than a small multiple of what its limits allow it.
const (
	partialFuzzMax   = 64 << 10
	partialFuzzAlloc = 64 << 20
)

// partialPlans are the plans of commands that read partial results: report, stats (per-op
// sums), and summarize, whose stages are every stage a partial holds (cmd/nccllog's
// summarized: those of ranks, comms, hang, check, info, diagnose and steps --by-call too;
// each reads its stage as summarize does). The last is summarize's.
func partialPlans(t testing.TB) []*stages.Plan {
	t.Helper()
	var out []*stages.Plan
	perOp := all.Registry()
	perOp.Register(agg.AggStage{PerOp: true})
	for _, p := range []struct {
		cfg   stages.Config
		reg   *stages.Registry
		names []string
	}{
		{stages.Config{}, all.Registry(), []string{"agg", "steps"}},
		{stages.Config{}, perOp, []string{"agg"}},
		{stages.Config{Portable: true}, all.Registry(), []string{"agg", "steps", "ranks", "info", "diagnose", "callsteps"}},
	} {
		plan, err := stages.NewPlan(p.cfg, p.reg, p.names...)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, plan)
	}
	return out
}

// summarizedSeed is the JSON of the partial result summarize writes of a small generated job.
func summarizedSeed(t testing.TB, cfg gen.Config) []byte {
	t.Helper()
	files, err := gen.WriteFiles(t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	plans := partialPlans(t)
	plan := plans[len(plans)-1]
	var ins []Input
	for _, f := range files {
		ins = append(ins, Input{Name: f})
	}
	res, err := RunAll(context.Background(), ins, Options{Jobs: 1, Plan: plan, Parsers: sharedParsers()}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := stages.Encode(&buf, res, plan); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzPartial mutates partial results summarize wrote and reads them under the plans of the
// commands that read them: no input may panic, and none under partialFuzzMax may allocate
// more than partialFuzzAlloc. What is read is written again, which walks what was restored.
func FuzzPartial(f *testing.F) {
	for _, cfg := range []gen.Config{
		{Seed: 41, Ranks: 2, RanksPerHost: 1, Steps: 1},
		{Seed: 42, Ranks: 2, RanksPerHost: 2, Steps: 2, Noise: true, StopRank: gen.Rank(1), StopAfter: 9},
		{Seed: 43, Ranks: 2, RanksPerHost: 2, Steps: 1, MismatchRank: gen.Rank(1), MismatchCall: 3, MismatchKind: "dtype"},
		// Diagnose's evidence: items of several kinds, communicators, a RAS report.
		{Seed: 44, Ranks: 4, RanksPerHost: 2, Steps: 2, Failure: "ib-error"},
		{Seed: 45, Ranks: 8, RanksPerHost: 4, Steps: 1, Failure: "ras", NCCLVersion: "2.29.2", RASFormat: "json"},
	} {
		f.Add(summarizedSeed(f, cfg))
	}
	plans := partialPlans(f)
	// One Parser reads every input's set-up lines, as a run lends one to each partial it
	// reads: a new one takes milliseconds, which would be most of an execution.
	ps, err := parser.NewParser()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, plan := range plans {
			res, err := stages.Decode(bytes.NewReader(data), plan, stages.NewLimits(int64(len(data))).WithParser(ps))
			if err == nil {
				if err := stages.Encode(io.Discard, res, plan); err != nil && plan.Portable {
					t.Errorf("writing again what was read: %v", err)
				}
			}
		}
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; len(data) <= partialFuzzMax && n > partialFuzzAlloc {
			t.Errorf("%d bytes allocated %d MiB, more than %d MiB", len(data), n>>20, partialFuzzAlloc>>20)
		}
	})
}

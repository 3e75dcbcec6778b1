package ranks

import (
	"bytes"
	"slices"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// TestHangOnHealthyCuts: a healthy job's log cut after any line (a job still running, stopped
// by a time limit, or the log cut with head) gives hang suspects and check short ranks only
// where a communicator's ranks stop at two calls, every culprit at one and the others at the
// furthest: the shape of a hang, which no cut can be told from. Ranks a few calls apart are
// never suspects. The whole log and one node's lines give none. Cuts after every third
// event; with -short, after 12 events spread over the log (cutPoints).
func TestHangOnHealthyCuts(t *testing.T) {
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]gen.Config{
		"16 ranks":              {Ranks: 16},
		"clean abort":           {Ranks: 16, CleanAbort: true},
		"32 ranks, noise":       {Ranks: 32, RanksPerHost: 8, Noise: true},
		"4 GPUs a process":      {Ranks: 8, GPUsPerProcess: 4},
		"teardown, 3 hosts":     {Ranks: 12, RanksPerHost: 4, Teardown: true},
		"one host, one process": {Ranks: 8, GPUsPerProcess: 8},
	} {
		for seed := int64(1); seed <= 2; seed++ {
			if testing.Short() && seed > 1 {
				break // -short: the first seed of each job (go test ./... cuts both)
			}
			c.Steps, c.Seed = 3, seed
			var b bytes.Buffer
			if _, err := gen.Write(&b, c); err != nil {
				t.Fatalf("%+v: %v", c, err)
			}
			events := rankEvents(stagetest.ParseLines(p, b.Bytes()))
			alarms, cuts := 0, 0
			for _, k := range cutPoints(1, len(events), 3, 12) {
				cuts++
				if hangShapeOnly(t, name, k, ranksOfEvents(events[:k])) {
					alarms++
				}
			}
			if alarm := hangShapeOnly(t, name, len(events), ranksOfEvents(events)); alarm {
				t.Errorf("%s: suspects on the whole log", name)
			}
			node := slices.DeleteFunc(slices.Clone(events), func(e RankEvent) bool { return e.Host != "gpu-node-00" })
			if alarm := hangShapeOnly(t, name+", gpu-node-00's lines", len(node), ranksOfEvents(node)); alarm {
				t.Errorf("%s: suspects on one node's lines", name)
			}
			t.Logf("%s, seed %d: %d of %d cuts have the shape of a hang", name, seed, alarms, cuts)
		}
	}
}

// cutPoints are the cuts from, from+stride, ... up to to; with -short, n of those spread
// evenly over them (the first and last kept), so a short run still cuts near the start,
// middle and end, at cuts the full run makes too. Deterministic.
func cutPoints(from, to, stride, n int) []int {
	var all []int
	for k := from; k <= to; k += stride {
		all = append(all, k)
	}
	if !testing.Short() || len(all) <= n {
		return all
	}
	out := make([]int, n)
	for i := range out {
		out[i] = all[i*(len(all)-1)/(n-1)]
	}
	return out
}

// hangShapeOnly checks that r's hang suspects and check length findings only name ranks
// behind at one call, and reports whether there were any.
func hangShapeOnly(t *testing.T, name string, k int, r *Ranks) bool {
	t.Helper()
	alarm := false
	for _, f := range r.Hang() {
		behind := map[int64]bool{}
		for _, s := range f.Suspects {
			if !slices.Equal(s.Evidence, []Evidence{EvBehind}) {
				t.Fatalf("%s, first %d events: %s suspect with evidence %v", name, k, s.Member.Label(), s.Evidence)
			}
			behind[s.Behind] = true
		}
		if len(behind) > 1 {
			t.Fatalf("%s, first %d events: comm of %d ranks: suspects behind at %d different calls: %v",
				name, k, f.Group.NRanks, len(behind), suspectLabels(f))
		}
		alarm = alarm || len(f.Suspects) > 0
	}
	for _, f := range r.Check() {
		if f.Kind != KindLength {
			t.Fatalf("%s, first %d events: a %s finding: %+v", name, k, f.Kind, f)
		}
		for _, m := range f.Short {
			if m.Through() != f.Short[0].Through() {
				t.Fatalf("%s, first %d events: short ranks at different calls", name, k)
			}
		}
	}
	return alarm
}

// rankEvents are the lines the ranks stage takes something from, as it holds them.
func rankEvents(lines []stagetest.ParsedText) []RankEvent {
	var out []RankEvent
	for i := range lines {
		if e, ok := rankEvent(int64(i+1), lines[i].Text, &lines[i].P); ok {
			out = append(out, e)
		}
	}
	return out
}

// ranksOfEvents is a Ranks that took events, as one file's.
func ranksOfEvents(events []RankEvent) *Ranks {
	r := NewRanks(&stages.Config{})
	for i := range events {
		e := events[i]
		r.Add("nccl.log", &e)
	}
	return r
}

// TestHangStopCuts: a rank that stopped while the others went on is the one suspect on the
// world communicator wherever the log is cut once the others are far past it, though the
// others stop a few calls apart. Every seventh cut of the last third; with -short, 12 spread
// over it.
func TestHangStopCuts(t *testing.T) {
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Ranks: 16, Steps: 6, Seed: 3, StopRank: gen.Rank(5), StopAfter: 40}); err != nil {
		t.Fatal(err)
	}
	events := rankEvents(stagetest.ParseLines(p, b.Bytes()))
	cut := 0
	for _, k := range cutPoints(len(events)*2/3, len(events), 7, 12) {
		for _, f := range ranksOfEvents(events[:k]).Hang() {
			if f.Group.NRanks != 16 {
				continue
			}
			if got := suspectLabels(f); !slices.Equal(got, []string{"5"}) {
				t.Fatalf("first %d events: world suspects %v, want [5]", k, got)
			}
			if f.Coverage.CutFrom > 0 && !f.Coverage.EndsCut {
				cut++
			}
		}
	}
	if cut == 0 {
		t.Errorf("no cut left the others a few calls apart: the test does not test that")
	}
}

package pipeline

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/steps"
)

// hline is one line of a hand-made log and what the test knows it is.
type hline struct {
	text      string
	step      int64 // the step of a progress marker; -1 for other lines
	count     int64 // the count of a collective line (unique in a log); 0 for other lines
	timeS     float64
	tflops    float64
	malformed bool
}

func marker(step int64, timeS, tflops float64) hline {
	return hline{
		text: fmt.Sprintf("Training epoch 0, iteration %d/9 | train_step_timing in s: %g | TFLOPS_per_GPU: %g",
			step, timeS, tflops),
		step: step, timeS: timeS, tflops: tflops,
	}
}

func coll(count int64) hline {
	return hline{
		text: fmt.Sprintf("h:1:1 [0] NCCL INFO AllReduce: opCount %x sendbuff 0x1 recvbuff 0x2 count %d "+
			"datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6", count, count),
		step: -1, count: count,
	}
}

func text(s string) hline { return hline{text: s, step: -1} }

// broken is the tail of a collective line whose head was cut off: malformed.
func broken() hline {
	return hline{text: "count 4 datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6", step: -1, malformed: true}
}

func joinLines(ls []hline) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

// callAt is the part of a Call that step tests look at.
type callAt struct {
	Line, Step, Count int64
}

func callsAt(cs []stages.Call) []callAt {
	out := []callAt{}
	for _, c := range cs {
		out = append(out, callAt{c.Line, c.Step, c.Coll.Count})
	}
	return out
}

// handWant works out, from what the test put in the log, what a run must select.
func handWant(ls []hline, cfg testCfg) (split string, calls []callAt, want *agg.Agg, pts []steps.StepPoint) {
	stepAt := stepOf(func(i int) (int64, bool) { return ls[i].step, ls[i].step >= 0 }, len(ls), cfg.Boundary)
	var b strings.Builder
	calls = []callAt{}
	want = agg.NewAgg()
	pts = []steps.StepPoint{}
	for i, l := range ls {
		if l.step >= 0 && (cfg.Steps == nil || cfg.Steps.Has(l.step)) {
			pts = append(pts, steps.StepPoint{Step: l.step, Lines: 1, TimeS: l.timeS, TFLOPs: l.tflops,
				HasTime: true, HasTFLOPs: true, Framework: "nemo"})
		}
		if !selected(cfg, stepAt[i]) {
			continue
		}
		b.WriteString(l.text + "\n")
		if l.count > 0 {
			calls = append(calls, callAt{int64(i + 1), stepAt[i], l.count})
			want.Add("AllReduce", l.count, 7)
		}
	}
	return b.String(), calls, want, pts
}

// handLog is a log with markers 0-9 in order, a varying number of lines (none, too) between
// them, and lines before the first and after the last.
func handLog(seed uint64) []hline {
	rng := rand.New(rand.NewPCG(seed, 0))
	var ls []hline
	count := int64(0)
	filler := func(n int) {
		for range n {
			switch rng.IntN(6) {
			case 0:
				ls = append(ls, text("some application output"))
			case 1:
				ls = append(ls, text(""))
			case 2:
				ls = append(ls, broken())
			default:
				count++
				ls = append(ls, coll(count))
			}
		}
	}
	filler(1 + rng.IntN(4))
	for s := range int64(10) {
		ls = append(ls, marker(s, 1+float64(s)/4, 100+float64(s)))
		filler(rng.IntN(5))
	}
	filler(1)
	return ls
}

func writeText(t *testing.T, name, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func rangeOf(from, to int64) *stages.StepRange { return &stages.StepRange{From: from, To: to} }

// TestStepBoundariesExact spells out which lines and calls each step selection yields for one
// small log, and runs it at every chunk size from 16 to 400 bytes, so that chunks begin and
// end at every line, markers included.
func TestStepBoundariesExact(t *testing.T) {
	ls := []hline{
		text("start"),       // 1
		coll(1),             // 2
		marker(0, 1.5, 100), // 3
		coll(2),             // 4
		text(""),            // 5
		marker(1, 1.5, 100), // 6
		marker(2, 1.5, 100), // 7
		coll(3),             // 8
		text("tail"),        // 9
	}
	log := joinLines(ls)
	name := writeText(t, "exact.log", log)
	L := func(ns ...int) string {
		var b strings.Builder
		for _, n := range ns {
			b.WriteString(ls[n-1].text + "\n")
		}
		return b.String()
	}
	end, start := stages.BoundaryEnd, stages.BoundaryStart
	tests := []struct {
		steps    *stages.StepRange
		boundary stages.Boundary
		split    string
		calls    []callAt
	}{
		{nil, end, log, []callAt{{2, 0, 1}, {4, 1, 2}, {8, -1, 3}}},
		{rangeOf(0, 0), end, L(1, 2, 3), []callAt{{2, 0, 1}}},
		{rangeOf(1, 1), end, L(4, 5, 6), []callAt{{4, 1, 2}}},
		{rangeOf(2, 2), end, L(7), []callAt{}},
		{rangeOf(1, 2), end, L(4, 5, 6, 7), []callAt{{4, 1, 2}}},
		{rangeOf(0, 9), end, L(1, 2, 3, 4, 5, 6, 7), []callAt{{2, 0, 1}, {4, 1, 2}}},
		{rangeOf(3, 9), end, "", []callAt{}},
		{nil, start, log, []callAt{{2, -1, 1}, {4, 0, 2}, {8, 2, 3}}},
		{rangeOf(0, 0), start, L(3, 4, 5), []callAt{{4, 0, 2}}},
		{rangeOf(1, 1), start, L(6), []callAt{}},
		{rangeOf(2, 2), start, L(7, 8, 9), []callAt{{8, 2, 3}}},
		{rangeOf(0, 1), start, L(3, 4, 5, 6), []callAt{{4, 0, 2}}},
		{rangeOf(0, 9), start, L(3, 4, 5, 6, 7, 8, 9), []callAt{{4, 0, 2}, {8, 2, 3}}},
		{rangeOf(3, 9), start, "", []callAt{}},
	}
	for i, tc := range tests {
		cfg := testCfg{Steps: tc.steps, Boundary: tc.boundary, Needs: needAll}
		// The oracle the other tests use must agree with the spelled-out answer.
		split, calls, _, _ := handWant(ls, cfg)
		if split != tc.split || !cmp.Equal(calls, tc.calls) {
			t.Fatalf("case %d: handWant disagrees with the table: %q %v", i, split, calls)
		}
	}
	// A run costs milliseconds of parser set-up, so each chunk size runs one case, in turn
	// (every case runs at 27 sizes); stages.TestStepBoundariesEveryCut runs every case at
	// every cut, without the reader.
	failures := 0
	stride := 1
	if raceEnabled {
		stride = 5
	}
	for cs := 16; cs <= 400 && failures < 10; cs += stride {
		tc := tests[cs%len(tests)]
		cfg := testCfg{Steps: tc.steps, Boundary: tc.boundary, Needs: needAll}
		jobs := 1 + cs/len(tests)%3
		what := fmt.Sprintf("%s chunk=%d jobs=%d", cfgName(cfg), cs, jobs)
		got := run(Input{Name: name}, jobs, cs, cfg)
		if got.err != nil {
			t.Errorf("%s: %v", what, got.err)
			failures++
			continue
		}
		bad := false
		if string(got.split) != tc.split {
			t.Errorf("%s: split\n got %q\nwant %q", what, got.split, tc.split)
			bad = true
		}
		if diff := cmp.Diff(tc.calls, callsAt(got.calls)); diff != "" {
			t.Errorf("%s: calls (-want +got):\n%s", what, diff)
			bad = true
		}
		if got.res.Lines().Total != int64(len(ls)) {
			t.Errorf("%s: Lines.Total = %d, want %d", what, got.res.Lines().Total, len(ls))
			bad = true
		}
		if bad {
			failures++
		}
	}
}

// TestStepBoundariesHandMade runs hand-made logs through many step selections at chunk sizes
// from 16 to 400 bytes and checks the split text, every call's line and step, the
// aggregation, the step points and the positions of malformed lines.
func TestStepBoundariesHandMade(t *testing.T) {
	ranges := []*stages.StepRange{nil, rangeOf(0, 0), rangeOf(9, 9), rangeOf(3, 5), rangeOf(0, 9),
		rangeOf(4, 100), rangeOf(10, 20)}
	failures := 0
	for seed := uint64(1); seed <= 2; seed++ {
		ls := handLog(seed)
		name := writeText(t, fmt.Sprintf("hand%d.log", seed), joinLines(ls))
		// One run per chunk size, each seed taking every fourth size (the stages tests cut at
		// every size): the selections, boundaries and worker counts rotate.
		stride := 4
		if raceEnabled {
			stride = 12
		}
		for cs := 15 + int(seed); cs <= 400 && failures < 10; cs += stride {
			k := cs + int(seed)
			cfg := testCfg{Steps: ranges[k%len(ranges)], Boundary: stages.Boundary(k / len(ranges) % 2),
				Needs: needAll}
			split, calls, agg, pts := handWant(ls, cfg)
			what := fmt.Sprintf("seed %d %s chunk=%d", seed, cfgName(cfg), cs)
			got := run(Input{Name: name}, 1+k%3, cs, cfg)
			if got.err != nil {
				t.Errorf("%s: %v", what, got.err)
				failures++
				continue
			}
			bad := false
			if string(got.split) != split {
				t.Errorf("%s: split\n got %q\nwant %q", what, got.split, split)
				bad = true
			}
			if diff := cmp.Diff(calls, callsAt(got.calls)); diff != "" {
				t.Errorf("%s: calls (-want +got):\n%s", what, diff)
				bad = true
			}
			if diff := cmp.Diff(agg.Rows(), aggOf(got.res).Rows()); diff != "" {
				t.Errorf("%s: Agg.Rows (-want +got):\n%s", what, diff)
				bad = true
			}
			if diff := cmp.Diff(pts, stepsOf(got.res).Points()); diff != "" {
				t.Errorf("%s: Steps.Points (-want +got):\n%s", what, diff)
				bad = true
			}
			// With steps selected, the lines of other steps are counted unread: their
			// malformed lines are not listed.
			var wantProblems, gotProblems []string
			lineSteps := stepOf(func(i int) (int64, bool) { return ls[i].step, ls[i].step >= 0 }, len(ls), cfg.Boundary)
			for i, l := range ls {
				if l.malformed && selected(cfg, lineSteps[i]) {
					wantProblems = append(wantProblems, fmt.Sprintf("%s:%d", name, i+1))
				}
			}
			for _, p := range got.res.Lines().Problems {
				gotProblems = append(gotProblems, fmt.Sprintf("%s:%d", p.File, p.Line))
			}
			if diff := cmp.Diff(wantProblems, gotProblems); diff != "" {
				t.Errorf("%s: malformed lines (-want +got):\n%s", what, diff)
				bad = true
			}
			if bad {
				failures++
			}
		}
	}
}

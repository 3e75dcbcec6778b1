package steps_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/internal/sharedtest"
	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
	"github.com/nccllog/nccllog/stages/steps"
)

type discard struct{}

func (discard) Lines([]byte) error      { return nil }
func (discard) Call(*stages.Call) error { return nil }

// runCallSteps runs the steps and callsteps stages over path in chunks of chunk bytes.
func runCallSteps(t *testing.T, chunk int, path string) (*steps.Steps, steps.Inference) {
	t.Helper()
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "steps", "callsteps")
	res, err := pipeline.RunAll(context.Background(), []pipeline.Input{{Name: path}}, pipeline.Options{Jobs: 2, Plan: plan, ChunkSize: chunk, Parsers: goldentest.Parsers()}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	return steps.StepsOf(res.Set), steps.CallStepsOf(res.Set).Infer()
}

func writeFile(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "job.log")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func genLog(t *testing.T, c gen.Config) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func timedJob(progress string) gen.Config {
	return gen.Config{Seed: 5, Ranks: 8, RanksPerHost: 4, Steps: 12, Noise: true, Progress: progress, Timestamps: "nccl-all", TimestampDigits: 6}
}

// TestInferredLikeProgress: a timed job without progress lines (its init broadcast before
// the loop, calls that vary from step to step at each step's end) gets one step fewer than
// it ran (the last has no next step to end it), each as long as the same job's progress
// lines say give or take a tenth, whatever the chunking.
func TestInferredLikeProgress(t *testing.T) {
	withProg, _ := runCallSteps(t, 0, writeFile(t, genLog(t, timedJob("nemo"))))
	pts := withProg.Points()
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = min(lo, p.TimeS), max(hi, p.TimeS)
	}
	path := writeFile(t, genLog(t, timedJob("none")))
	for _, chunk := range []int{0, 700, 8 << 10} {
		_, inf := runCallSteps(t, chunk, path)
		if inf.Why != steps.WhyInferred || len(inf.Steps) != len(pts)-1 || inf.Pattern.Processes != 8 || inf.Pattern.WarmupCalls < 1 {
			t.Fatalf("chunk %d: %+v, want %d steps over 8 processes after warm-up", chunk, inf, len(pts)-1)
		}
		for _, s := range inf.Steps {
			if s.TimeS < 0.9*lo || s.TimeS > 1.1*hi {
				t.Errorf("chunk %d: step %d took %g s, the progress lines %g-%g", chunk, s.Step, s.TimeS, lo, hi)
			}
		}
	}
}

// TestNotInferred: untimed calls, whole-second times and nccl-tests' size sweep give no
// steps, each saying why; one size of nccl-tests repeated is one call per step.
func TestNotInferred(t *testing.T) {
	untimed := timedJob("none")
	untimed.Timestamps, untimed.TimestampDigits = "", 0
	coarse := timedJob("none")
	coarse.TimestampDigits = -1
	for _, c := range []struct {
		name string
		log  []byte
		want steps.Why
	}{
		{"untimed", genLog(t, untimed), steps.WhyUntimed},
		{"whole seconds", genLog(t, coarse), steps.WhyCoarse},
		{"nccl-tests sweep", ncclTests(8, 25), steps.WhyNoPattern},
		{"one size", ncclTests(1, 25), steps.WhyInferred},
		{"empty", nil, steps.WhyNoCalls},
	} {
		_, inf := runCallSteps(t, 0, writeFile(t, c.log))
		if inf.Why != c.want {
			t.Errorf("%s: %+v, want why %d", c.name, inf, c.want)
		}
		if c.want == steps.WhyInferred && (inf.Pattern.CallsPerStep != 1 || len(inf.Steps) != 22 || math.Abs(inf.Steps[0].TimeS-0.002) > 1e-9) {
			t.Errorf("%s: %+v, want 22 steps of 1 call, 2 ms each (a step is found by its first 3 calls: the last 2 calls start none)", c.name, inf)
		}
	}
}

// ncclTests is a 2-process nccl-tests run: sizes sizes from 8 B doubling, each repeated
// iters times, 2 ms apart.
func ncclTests(sizes, iters int) []byte {
	var b strings.Builder
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for s := range sizes {
		for i := range iters {
			for r := range 2 {
				at := t0.Add(time.Duration((s*iters+i)*2) * time.Millisecond)
				fmt.Fprintf(&b, "[%s] node-a:%d:%d [%d] NCCL INFO AllReduce: opCount %x sendbuff 0x7f0000 recvbuff 0x7f0000 count %d datatype 7 op 0 root 0 comm 0x5500%d [nranks=2] stream 0x5600%d\n",
					at.Format("2006-01-02 15:04:05.000000"), 100+r, 100+r, r, s*iters+i, 2<<s, r, r)
			}
		}
	}
	return []byte(b.String())
}

// TestInferredCuts: a head, tail or middle cut of the job never panics, and steps are
// inferred only where they recur at least 3 times in what is left.
func TestInferredCuts(t *testing.T) {
	lines := bytes.SplitAfter(genLog(t, timedJob("none")), []byte("\n"))
	n := len(lines)
	cuts := map[string][][]byte{"head": lines[:n/3], "tail": lines[2*n/3:], "middle": lines[n/3 : n/2], "tiny": lines[n/2 : n/2+60]}
	for name, ls := range cuts {
		_, inf := runCallSteps(t, 700, writeFile(t, bytes.Join(ls, nil)))
		if inf.Why == steps.WhyInferred && len(inf.Steps) < steps.MinRepeats {
			t.Errorf("%s: %d steps inferred", name, len(inf.Steps))
		}
		for _, s := range inf.Steps {
			if s.TimeS <= 0 {
				t.Errorf("%s: step %d took %g s", name, s.Step, s.TimeS)
			}
		}
	}
}

// TestInferredSamples: the shared samples either have progress lines, untimed calls, or no
// recurring pattern; none yields inferred steps that are not there.
func TestInferredSamples(t *testing.T) {
	for _, p := range sharedtest.Glob(t, "samples/*.log") {
		_, inf := runCallSteps(t, 0, p)
		if inf.Why == steps.WhyInferred {
			t.Errorf("%s: inferred %+v", filepath.Base(p), inf.Pattern)
		}
	}
}

// longJob is a 2-process timed job of steps steps, about 25 calls per process each.
func longJob(progress string, steps int) gen.Config {
	return gen.Config{Seed: 7, Ranks: 2, RanksPerHost: 2, Steps: steps, Noise: true, Progress: progress, Timestamps: "nccl-all", TimestampDigits: 6}
}

// TestInferredWholeLog: a job whose processes each issue over 10 times KeptCalls calls gets
// every step inferred, not only those of its first KeptCalls calls, whatever the chunking:
// on average as long as the same job's progress lines say, and each within the generator's
// jitter (where in its step a step's first call falls varies by up to a fifth of a step).
func TestInferredWholeLog(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: two 900-step generated logs (over ten times the calls kept) run without -short")
	}
	const n = 900
	withProg, _ := runCallSteps(t, 0, writeFile(t, genLog(t, longJob("nemo", n))))
	pts := withProg.Points()
	var want float64
	for _, p := range pts[1:] {
		want += p.TimeS / float64(len(pts)-1)
	}
	path := writeFile(t, genLog(t, longJob("none", n)))
	for _, chunk := range []int{0, 64 << 10} {
		_, inf := runCallSteps(t, chunk, path)
		if inf.Why != steps.WhyInferred || inf.Pattern.Truncated || len(inf.Steps) != len(pts)-1 {
			t.Fatalf("chunk %d: %d steps (truncated %v), want %d", chunk, len(inf.Steps), inf.Pattern.Truncated, len(pts)-1)
		}
		if calls := inf.Pattern.CallsPerStep * n; calls < 10*steps.KeptCalls {
			t.Fatalf("the job has %d calls per process, want over %d", calls, 10*steps.KeptCalls)
		}
		var avg float64
		for _, s := range inf.Steps {
			avg += s.TimeS / float64(len(inf.Steps))
			if s.TimeS < 0.75*want || s.TimeS > 1.25*want {
				t.Errorf("chunk %d: step %d took %g s, the progress lines %g on average", chunk, s.Step, s.TimeS, want)
			}
		}
		if math.Abs(avg-want) > 0.05*want { // the median of 2 processes is the lower
			t.Errorf("chunk %d: the steps took %g s on average, the progress lines %g", chunk, avg, want)
		}
	}
}

// TestInferredEveryStepNotEveryTenth: a job that broadcasts every 10 steps (as loops that
// evaluate or log every N steps do) has steps of one iteration, not of ten: the call that
// recurs every 10 steps is as regular as the step, but recurs less often.
func TestInferredEveryStepNotEveryTenth(t *testing.T) {
	withProg, _ := runCallSteps(t, 0, writeFile(t, genLog(t, longJob("nemo", 60))))
	hi := 0.0
	for _, p := range withProg.Points() {
		hi = max(hi, p.TimeS)
	}
	_, inf := runCallSteps(t, 0, writeFile(t, genLog(t, longJob("none", 60))))
	if inf.Why != steps.WhyInferred || inf.Pattern.CallsPerStep > 40 {
		t.Fatalf("%+v, want steps of about 26 calls", inf.Pattern)
	}
	for _, s := range inf.Steps {
		if s.TimeS > 1.1*hi {
			t.Errorf("step %d took %g s, the longest progress step %g", s.Step, s.TimeS, hi)
		}
	}
}

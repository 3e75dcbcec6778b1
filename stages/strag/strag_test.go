package strag_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
	"github.com/nccllog/nccllog/stages/strag"
)

// job is the 64-rank job the tests generate: 8 hosts of 8, timed by a collector, arrivals
// in step. Under -short it has 16 ranks (2 hosts of 8): what is named does not depend on the
// job's size, and the tests read a quarter of the lines (rank scales the ranks they name).
func job() gen.Config {
	c := fullJob()
	c.Ranks = jobRanks()
	return c
}

// fullJob is the 64-rank job whatever the flags (the goldens hold its report).
func fullJob() gen.Config {
	return gen.Config{Seed: 3, Ranks: 64, RanksPerHost: 8, Steps: 20, Timestamps: "iso", ArrivalJitter: 2 * time.Millisecond}
}

func jobRanks() int {
	if testing.Short() {
		return 16
	}
	return 64
}

// rank is rank r of the 64-rank job, scaled to the job's size: the same position among the
// hosts, so ranks the tests put on different hosts stay apart.
func rank(r int) int { return r * jobRanks() / 64 }

func write(t *testing.T, c gen.Config) (string, *gen.Truth) {
	t.Helper()
	// Straight to the file: growing a buffer to the 64-rank job's size was a fifth of the
	// package's CPU.
	p := filepath.Join(t.TempDir(), "job.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gen.Write(f, c)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return p, s.Truth
}

func report(t *testing.T, chunk int, paths ...string) strag.StragglersReport {
	t.Helper()
	return run(t, 0, chunk, paths...).Report()
}

// run runs the stragglers stage over paths with jobs workers and chunks of chunk bytes (0:
// the defaults).
func run(t *testing.T, jobs, chunk int, paths ...string) *strag.StragPart {
	t.Helper()
	var in []pipeline.Input
	for _, p := range paths {
		in = append(in, pipeline.Input{Name: p})
	}
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "stragglers")
	res, err := pipeline.RunAll(context.Background(), in, pipeline.Options{Jobs: jobs, Plan: plan, ChunkSize: chunk, Parsers: goldentest.Parsers()}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	return strag.StragOf(res.Set)
}

type discard struct{}

func (discard) Lines([]byte) error      { return nil }
func (discard) Call(*stages.Call) error { return nil }

func TestStragglerNamed(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{gen.StragglerChronic, gen.StragglerOneOff} {
		t.Run(kind, func(t *testing.T) {
			c := job()
			c.Stragglers = []gen.Straggler{{Rank: rank(37), Kind: kind}}
			path, truth := write(t, c)
			rep := report(t, 0, path)
			if len(rep.Stragglers) != 1 {
				t.Fatalf("want one straggler, got %+v", rep)
			}
			s, want := rep.Stragglers[0], truth.Stragglers[0]
			if s.Host != want.Host || s.Pid != int64(want.PID) || s.Rank != int64(rank(37)) || s.Kind.String() != kind {
				t.Fatalf("got %+v, want %+v", s, want)
			}
			if kind == gen.StragglerOneOff {
				if len(s.Steps) != len(want.Steps) || s.Steps[0].Step != int64(want.Steps[0]) {
					t.Fatalf("late steps %+v, want %v", s.Steps, want.Steps)
				}
			} else if s.LateSteps < 19 || s.MedianLagMs < 35 || s.MedianLagMs > 45 || s.LastShare < 0.9 {
				t.Fatalf("chronic straggler's numbers: %+v", s)
			}
		})
	}
}

// TestHealthyListsNothing: the same job without a straggler, with its hosts' clocks apart,
// on the interleaving clock, untimed, timed to the second, with 2 GPUs a process, and cut at its head, middle and
// tail, lists no one.
func TestHealthyListsNothing(t *testing.T) {
	t.Parallel()
	skew := job()
	skew.ClockSkew = 250 * time.Millisecond
	interleaved := job()
	interleaved.ArrivalJitter = 0
	untimed := job()
	untimed.Timestamps, untimed.ArrivalJitter = "", 0
	seconds := job()
	seconds.Timestamps = "nccl-all"
	multi := job()
	multi.GPUsPerProcess = 2
	for name, c := range map[string]gen.Config{"healthy": job(), "skew": skew, "interleaved": interleaved, "untimed": untimed, "seconds": seconds, "2-gpu-processes": multi} {
		t.Run(name, func(t *testing.T) {
			path, _ := write(t, c)
			rep := report(t, 0, path)
			if len(rep.Stragglers) != 0 {
				t.Fatalf("listed %+v", rep.Stragglers)
			}
			if name == "skew" && rep.Note == "" {
				t.Fatal("no note that the hosts' clocks disagree")
			}
			if name == "untimed" && (rep.TimedCalls != 0 || rep.UntimedCalls == 0 || rep.Note == "") {
				t.Fatalf("untimed counts: %+v", rep)
			}
		})
	}
}

func TestCutsListNothing(t *testing.T) {
	t.Parallel()
	path, _ := write(t, job())
	data, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(data, []byte("\n"))
	n := len(lines)
	for name, part := range map[string][][]byte{"head": lines[:n/3], "middle": lines[n/3 : 2*n/3], "tail": lines[2*n/3:],
		"short-head": lines[:n/20]} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), name+".log")
			if err := os.WriteFile(p, bytes.Join(part, nil), 0o644); err != nil {
				t.Fatal(err)
			}
			if rep := report(t, 0, p); len(rep.Stragglers) != 0 {
				t.Fatalf("listed %+v", rep.Stragglers)
			}
		})
	}
}

// TestChunkingSameReport: chunks of any size, one worker or two, give the report of the
// whole, and the same lag map; over per-process files, in either order, the same Snapshot.
func TestChunkingSameReport(t *testing.T) {
	t.Parallel()
	c := job()
	c.Stragglers = []gen.Straggler{{Rank: rank(5), Kind: gen.StragglerOneOff}}
	path, _ := write(t, c)
	want, _ := json.Marshal(report(t, 0, path))
	_, m := run(t, 0, 0, path).ReportAndMap()
	wantMap, _ := json.Marshal(m)
	chunks := []int{4 << 10, 64 << 10, 300 << 10}
	if testing.Short() {
		chunks = []int{4 << 10, 300 << 10} // the smallest and the largest
	}
	for _, chunk := range chunks {
		got, _ := json.Marshal(report(t, chunk, path))
		if !bytes.Equal(got, want) {
			t.Fatalf("chunk %d:\n%s\nwant\n%s", chunk, got, want)
		}
		_, m := run(t, 2, chunk, path).ReportAndMap()
		if got, _ := json.Marshal(m); !bytes.Equal(got, wantMap) {
			t.Fatalf("chunk %d: the lag map differs", chunk)
		}
	}
	files, err := gen.WriteFiles(filepath.Join(t.TempDir(), "logs"), c)
	if err != nil {
		t.Fatal(err)
	}
	wantSnap, _ := json.Marshal(run(t, 1, 0, files...).Snapshot())
	reversed := slices.Clone(files)
	slices.Reverse(reversed)
	for _, o := range []struct {
		files       []string
		jobs, chunk int
	}{{files, 2, 4 << 10}, {reversed, 2, 700}, {reversed, 1, 64 << 10}} {
		got, _ := json.Marshal(run(t, o.jobs, o.chunk, o.files...).Snapshot())
		if !bytes.Equal(got, wantSnap) {
			t.Fatalf("jobs %d, chunks %d: the snapshot differs", o.jobs, o.chunk)
		}
	}
}

// TestStepsNarrowReport: --steps compares only the positions of those steps: a one-off
// straggler's late steps outside them list nobody, inside them name it.
func TestStepsNarrowReport(t *testing.T) {
	t.Parallel()
	c := job()
	c.Stragglers = []gen.Straggler{{Rank: rank(37), Kind: gen.StragglerOneOff}}
	path, truth := write(t, c)
	late := int64(truth.Stragglers[0].Steps[0])
	for _, o := range []struct {
		r     stages.StepRange
		named bool
	}{{stages.StepRange{From: 0, To: late - 1}, false}, {stages.StepRange{From: late - 3, To: late + 3}, true}} {
		res, err := pipeline.Analyze(context.Background(), []pipeline.Input{{Name: path}}, stages.Config{Steps: &o.r}, "stragglers")
		if err != nil {
			t.Fatal(err)
		}
		rep := strag.Report(res.Set)
		if got := len(rep.Stragglers) == 1 && rep.Stragglers[0].Rank == int64(rank(37)); got != o.named || !o.named && len(rep.Stragglers) != 0 {
			t.Fatalf("steps %v: %+v", o.r, rep.Stragglers)
		}
	}
}

// TestChronicAndOneOffInOneJob: a 64-rank job with a chronic straggler and a one-off one
// (on another host) names both, with their kinds, the chronic one first; the same job
// without them names nobody.
func TestChronicAndOneOffInOneJob(t *testing.T) {
	t.Parallel()
	c := job()
	c.Stragglers = []gen.Straggler{{Rank: rank(12), Kind: gen.StragglerOneOff, Lag: 60 * time.Millisecond}, {Rank: rank(45), Kind: gen.StragglerChronic}}
	path, truth := write(t, c)
	rep := report(t, 0, path)
	if len(rep.Stragglers) != 2 {
		t.Fatalf("want 2 stragglers, got %+v", rep.Stragglers)
	}
	for i, want := range []gen.StragglerTruth{truth.Stragglers[1], truth.Stragglers[0]} {
		s := rep.Stragglers[i]
		if s.Rank != int64(want.Rank) || s.Host != want.Host || s.Pid != int64(want.PID) || s.Kind.String() != want.Kind {
			t.Fatalf("straggler %d: %+v, want %+v", i, s, want)
		}
	}
	if got := rep.Stragglers[1].Steps; len(got) != 2 || got[0].Step != int64(truth.Stragglers[0].Steps[0]) {
		t.Fatalf("one-off's late steps %+v, want %v", got, truth.Stragglers[0].Steps)
	}
}

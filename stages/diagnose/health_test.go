package diagnose_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/diagnose"
)

// healthy are jobs that did not fail: the scenarios' jobs without their failure, with noise
// (application lines, the IB port-event WARNs healthy jobs print), clean shutdowns by Abort
// or Destroy on every rank, and one process driving several GPUs.
func healthy() []scenario {
	var out []scenario
	for _, s := range scenarios() {
		c := s.cfg
		c.Failure, c.GlueWatchdog = "", false
		out = append(out, scenario{s.name + "-healthy", c})
	}
	base := gen.Config{Seed: 3, Ranks: 16, RanksPerHost: 8, Steps: 6}
	noise, abort, destroy, multi := base, base, base, base
	noise.Noise = true
	abort.CleanAbort = true
	destroy.Teardown = true
	multi.GPUsPerProcess, multi.Ranks, multi.RanksPerHost = 4, 8, 8
	stamped := noise
	stamped.Timestamps = "nccl-warn"
	return append(out, scenario{"noise", noise}, scenario{"clean-abort", abort}, scenario{"teardown", destroy},
		scenario{"gpus-per-process", multi}, scenario{"noise-stamped", stamped})
}

func TestHealthy(t *testing.T) {
	for _, s := range healthy() {
		t.Run(s.name, func(t *testing.T) {
			data, _ := generate(t, s.cfg)
			if r := diagnoseBytes(t, "job.log", data, 0); r.Status != diagnose.StatusHealthy {
				t.Errorf("status %s, want healthy:\n%s", r.Status, js(r))
			}
		})
	}
}

// TestCutsNeverFault: excerpts of healthy jobs (head, tail and middle cuts at random lines,
// as of a job still running; one node's lines) are never a fault, nor are the heads of the failing jobs that
// end before their failure began.
func TestCutsNeverFault(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	cuts := 6
	if testing.Short() {
		cuts = 1 // still a head, a tail and a middle of every healthy job
	}
	for _, s := range healthy() {
		data, _ := generate(t, s.cfg)
		lines := bytes.SplitAfter(data, []byte("\n"))
		for range cuts {
			i, j := rng.Intn(len(lines)), rng.Intn(len(lines))
			i, j = min(i, j), max(i, j)+1
			for _, cut := range [][2]int{{0, j}, {i, len(lines)}, {i, j}} {
				excerpt := bytes.Join(lines[cut[0]:cut[1]], nil)
				if r := diagnoseBytes(t, "cut.log", excerpt, 0); r.Status == diagnose.StatusFault {
					t.Errorf("%s lines %d-%d of %d: fault:\n%s", s.name, cut[0]+1, cut[1], len(lines), js(r))
				}
			}
		}
		var node []byte // one node's lines of a two-node job
		for _, l := range lines {
			if bytes.Contains(l, []byte("gpu-node-00:")) {
				node = append(node, l...)
			}
		}
		if r := diagnoseBytes(t, "node.log", node, 0); r.Status == diagnose.StatusFault {
			t.Errorf("%s: the lines of gpu-node-00 alone are a fault:\n%s", s.name, js(r))
		}
	}
	for si, s := range scenarios() {
		if s.cfg.Failure == "init-fail" {
			continue // it fails in its first lines
		}
		if testing.Short() && si%2 != 0 {
			continue // -short: every other failing job's head (go test ./... cuts every one)
		}
		data, _ := generate(t, s.cfg)
		lines := bytes.SplitAfter(data, []byte("\n"))
		j := rng.Intn(len(lines) * 2 / 5)
		if r := diagnoseBytes(t, "head.log", bytes.Join(lines[:j], nil), 0); r.Status == diagnose.StatusFault {
			t.Errorf("%s: the first %d lines, before the failure, are a fault:\n%s", s.name, j, js(r))
		}
	}
}

// TestOlderFaults: gen's older faults name their rank first: one that calls something else
// (mismatch), one that aborts alone, and one that stops: a suspect only (status unknown),
// since a log cut there looks the same.
func TestOlderFaults(t *testing.T) {
	rank := 5
	base := gen.Config{Seed: 2, Ranks: 8, RanksPerHost: 4, Steps: 4}
	stop, mis, ab := base, base, base
	stop.StopRank, stop.StopAfter = &rank, 20
	mis.MismatchRank, mis.MismatchCall, mis.MismatchKind = &rank, 20, "count"
	ab.AbortRank, ab.StopRank, ab.StopAfter = &rank, &rank, 20
	for _, s := range []struct {
		name string
		cfg  gen.Config
		kind diagnose.Kind
		want diagnose.Status
	}{{"stop", stop, diagnose.KindBehind, diagnose.StatusUnknown}, {"mismatch", mis, diagnose.KindMismatch, diagnose.StatusFault},
		{"abort", ab, diagnose.KindAbort, diagnose.StatusFault}} {
		t.Run(s.name, func(t *testing.T) {
			data, _ := generate(t, s.cfg)
			r := diagnoseBytes(t, "job.log", data, 0)
			if r.Status != s.want || len(r.Findings) == 0 {
				t.Fatalf("status %s with %d findings, want %s", r.Status, len(r.Findings), s.want)
			}
			if f := r.Findings[0]; f.Kind != s.kind || len(f.Ranks) != 1 || f.Ranks[0] != int64(rank) {
				t.Errorf("first finding %s ranks %v, want %s of rank %d: %s", f.Kind, f.Ranks, s.kind, rank, f.Summary)
			}
		})
	}
}

// TestNoticeInPendingInit: a log cut while every process is still in init (Init START, no
// COMPLETE) whose only WARNs are notices (RAS's client socket that could not bind, which NCCL
// runs on without) is no init failure; the same WARNs each followed by an error chain are one.
func TestNoticeInPendingInit(t *testing.T) {
	procs := []string{"h1:11:11 [0]", "h2:22:22 [1]"}
	build := func(chain bool) []byte {
		var b bytes.Buffer
		for i, p := range procs {
			fmt.Fprintf(&b, "%s NCCL INFO comm 0x%x rank %d nranks 2 cudaDev %d busId 1000 - Init START\n", p, 0xa0+i, i, i)
		}
		for _, p := range procs {
			b.WriteString(p + " ras/client_support.cc:181 NCCL WARN Call to bind failed: Address already in use\n")
			if chain {
				b.WriteString(p + " NCCL INFO init.cc:1400 -> 2\n")
			}
			b.WriteString(p + " NCCL INFO RAS failed to establish a client listening socket at localhost:28028\n")
		}
		return b.Bytes()
	}
	if r := diagnoseBytes(t, "cut.log", build(false), 0); r.Status == diagnose.StatusFault {
		t.Errorf("notices in a pending init: fault:\n%s", js(r))
	}
	r := diagnoseBytes(t, "failed.log", build(true), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindInitFailure {
		t.Errorf("WARNs with error chains in a pending init: %s, want an init-failure fault:\n%s", r.Status, js(r))
	}
}

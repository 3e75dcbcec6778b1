package ranks_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/ranks"
)

// The verdicts of hang and check on generated jobs, read from the family's Reports (the CLI
// only lays them out: cmd/nccllog keeps the tests of its flags, exit codes and formats).

// TestHealthyEndings: a healthy run that ends with Destroy on every rank, with Abort on
// every rank (PyTorch's destroy_process_group), or driven by one process per four GPUs gives
// neither hang nor check a finding, interleaved or one file per process.
func TestHealthyEndings(t *testing.T) {
	for name, cfg := range map[string]gen.Config{
		"teardown":         {Teardown: true},
		"clean-abort":      {CleanAbort: true},
		"gpus-per-process": {GPUsPerProcess: 4, Noise: true},
		"both":             {GPUsPerProcess: 2, CleanAbort: true},
	} {
		t.Run(name, func(t *testing.T) {
			eachInput(t, cfg, func(t *testing.T, a analyzed) {
				h := a.ranks.HangReport()
				if h.Found() {
					t.Errorf("suspects on a healthy run: %+v", h.Comms)
				}
				if c := a.ranks.CheckReport(); len(c.Findings) > 0 {
					t.Errorf("check findings on a healthy run: %+v", c.Findings)
				}
			})
		})
	}
}

// TestHangFaultsTopSuspect: with each injected fault, also where one process drives several
// GPUs or the run ends in Abort everywhere, hang's top suspect is the faulty rank.
func TestHangFaultsTopSuspect(t *testing.T) {
	for name, cfg := range map[string]gen.Config{
		"stop":                 {StopRank: gen.Rank(5), StopAfter: 40},
		"stop-clean-abort":     {StopRank: gen.Rank(5), StopAfter: 40, CleanAbort: true},
		"stop-4-gpus-per-proc": {StopRank: gen.Rank(5), StopAfter: 40, GPUsPerProcess: 4},
		"abort":                {AbortRank: gen.Rank(5), StopRank: gen.Rank(5), StopAfter: 40},
		"missing":              {MissingRank: gen.Rank(5)},
		"watchdog":             {WatchdogRank: gen.Rank(5), WatchdogSeq: 30},
		"watchdog-first-work":  {WatchdogRank: gen.Rank(5), WatchdogSeq: 1, CleanAbort: true},
	} {
		t.Run(name, func(t *testing.T) {
			eachInput(t, cfg, func(t *testing.T, a analyzed) {
				h := a.ranks.HangReport()
				if !h.Found() {
					t.Fatal("no suspect")
				}
				for _, c := range h.Comms {
					if c.NRanks != 8 {
						continue
					}
					if len(c.Suspects) == 0 || c.Suspects[0].Rank == nil || *c.Suspects[0].Rank != 5 {
						t.Errorf("world suspects %+v, want rank 5 first", c.Suspects)
					}
				}
			})
		})
	}
}

// TestHangNodeLog: one node's log of a two-node job covers half of the world communicator;
// the other node's ranks are not suspects, and both nodes' logs together are the whole job.
func TestHangNodeLog(t *testing.T) {
	dir := t.TempDir()
	paths, err := gen.WriteNodes(dir, gen.Config{Seed: 3, Ranks: 8, RanksPerHost: 4, Steps: 12, Noise: true})
	if err != nil || len(paths) != 2 {
		t.Fatalf("WriteNodes: %v %v", paths, err)
	}
	h := analyze(t, paths[0]).ranks.HangReport()
	for _, c := range h.Comms {
		if !c.Coverage.SomeNodes || c.Coverage.Nodes == nil || *c.Coverage.Nodes != 2 || len(c.Suspects) > 0 {
			t.Errorf("comm of %d ranks: coverage %+v, suspects %+v; want 1 of 2 nodes, no suspect", c.NRanks, c.Coverage, c.Suspects)
		}
	}
	whole := analyze(t, filepath.Dir(paths[0])).ranks.HangReport()
	for _, c := range whole.Comms {
		if c.Coverage.SomeNodes || c.Coverage.RanksPresent != c.NRanks {
			t.Errorf("both nodes: coverage %+v", c.Coverage)
		}
	}
}

// TestHangLogEndsInCalls: a healthy job's log cut while its ranks issue calls a few apart (as
// a job still running or stopped by a time limit leaves it) gives hang and check no finding,
// says so per communicator, and names the reason: for the world communicator, where its ranks
// stop; for a pair of ranks one call apart, that their processes stop that way on the world
// communicator.
func TestHangLogEndsInCalls(t *testing.T) {
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Seed: 1, Ranks: 16, Steps: 6, CleanAbort: true}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cut.log")
	if err := os.WriteFile(path, []byte(strings.Join(strings.SplitAfter(b.String(), "\n")[:1918], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	a := analyze(t, path)
	h := a.ranks.HangReport()
	if h.Found() || len(a.ranks.CheckReport().Findings) > 0 {
		t.Errorf("a finding on a cut healthy log: %+v", h.Comms)
	}
	why, notes := map[ranks.CutWhy]bool{}, ""
	for _, c := range h.Comms {
		if c.Coverage.EndsCut != (c.Coverage.CutFrom != nil) {
			t.Errorf("comm of %d ranks: ends_cut %v, cut_from %v", c.NRanks, c.Coverage.EndsCut, c.Coverage.CutFrom)
		}
		why[c.Coverage.CutWhy] = true
		notes += strings.Join(c.Coverage.Notes, "\n")
	}
	if !why[ranks.CutInFlight] || !why[ranks.CutProcs] {
		t.Errorf("cut_why seen %v, want %q and %q", why, ranks.CutInFlight, ranks.CutProcs)
	}
	if !strings.Contains(notes, "a few calls apart, as a log that ends while the job issues calls stops them") ||
		!strings.Contains(notes, "as the log ends while their processes issue calls on another communicator") {
		t.Errorf("notes:\n%s", notes)
	}
}

// TestHangWatchdogStraggler: with the watchdog fault, hang's process group 0 names the rank
// that never enqueued the work the others timed out on as its one suspect, joined to its
// NCCL lines (host, calls on the world communicator); so it does from the watchdog lines
// alone, and with torchrun's prefix.
func TestHangWatchdogStraggler(t *testing.T) {
	cfg := gen.Config{WatchdogRank: gen.Rank(5), WatchdogSeq: 30}
	check := func(t *testing.T, in string, joined bool) {
		h := analyze(t, in).ranks.HangReport()
		if !h.Found() || len(h.PGs) != 1 {
			t.Fatalf("found %v, process groups %+v, want 1", h.Found(), h.PGs)
		}
		pg := h.PGs[0]
		if pg.PG != 0 || pg.Seq == nil || *pg.Seq != 30 || pg.TimedOut != 7 || pg.Started == "" {
			t.Errorf("group %d: timed out on %v by %d ranks, started %q; want group 0, work 30, 7 ranks, a start", pg.PG, pg.Seq, pg.TimedOut, pg.Started)
		}
		if len(pg.Suspects) != 1 || pg.Suspects[0].Rank != 5 {
			t.Fatalf("suspects %+v, want rank 5 alone", pg.Suspects)
		}
		if len(pg.Ranks) != 8 || pg.Ranks[5].State != ranks.PGNoLine {
			t.Errorf("ranks %+v, want 8, rank 5 without a watchdog line", pg.Ranks)
		}
		if !joined {
			return
		}
		if pg.NRanks == nil || *pg.NRanks != 8 || pg.Suspects[0].Host == "" || pg.Ranks[5].NCCLCalls == nil ||
			!strings.Contains(strings.Join(pg.Suspects[0].Evidence, " "), "its NCCL lines on comm") {
			t.Errorf("not joined to the NCCL lines: %+v", pg)
		}
		for _, r := range pg.Ranks {
			if r.Host == "" {
				t.Errorf("rank %d: no host", r.Rank)
			}
		}
	}
	for _, prefix := range []string{"", "torchrun"} {
		all, dir := genLog(t, cfg, prefix)
		t.Run("interleaved"+prefix, func(t *testing.T) { check(t, all, true) })
		t.Run("watchdog-only"+prefix, func(t *testing.T) { check(t, watchdogOnly(t, all), false) })
		if prefix == "" {
			t.Run("per-rank-files", func(t *testing.T) { check(t, dir, true) })
		}
	}
}

// watchdogOnly writes the watchdog lines of the log in into a file of their own: a job whose
// NCCL_DEBUG was off.
func watchdogOnly(t *testing.T, in string) string {
	t.Helper()
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if strings.Contains(sc.Text(), "ProcessGroupNCCL.cpp") {
			b.WriteString(sc.Text() + "\n")
		}
	}
	out := filepath.Join(t.TempDir(), "watchdog.log")
	if b.Len() == 0 || os.WriteFile(out, []byte(b.String()), 0o644) != nil {
		t.Fatalf("no watchdog lines in %s", in)
	}
	return out
}

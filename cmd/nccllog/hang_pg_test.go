package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// pgOnly is the part of hang's JSON about PyTorch process groups.
type pgOnly struct {
	PGs []struct {
		PG       int64  `json:"pg"`
		NRanks   *int64 `json:"nranks"`
		Comm     string `json:"comm"`
		Seq      *int64 `json:"timed_out_seq"`
		TimedOut int    `json:"ranks_timed_out"`
		Started  string `json:"started"`
		Ranks    []struct {
			Rank      int64  `json:"rank"`
			Host      string `json:"host"`
			State     string `json:"state"`
			NCCLCalls *int64 `json:"nccl_calls"`
		} `json:"ranks"`
		Suspects []struct {
			Rank     int64    `json:"rank"`
			Host     string   `json:"host"`
			Score    int      `json:"score"`
			Evidence []string `json:"evidence"`
		} `json:"suspects"`
	} `json:"process_groups"`
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

// TestHangWatchdogStraggler: with the watchdog fault, hang's process group 0 names the rank
// that never enqueued the work the others timed out on as its one suspect, joined to its
// NCCL lines (host, calls on the world communicator); so it does from the watchdog lines
// alone, and with torchrun's prefix.
func TestHangWatchdogStraggler(t *testing.T) {
	cfg := gen.Config{WatchdogRank: gen.Rank(5), WatchdogSeq: 30}
	check := func(t *testing.T, in string, joined bool) {
		var h pgOnly
		runJSON(t, &h, exitFound, "hang", "--format", "json", in)
		if len(h.PGs) != 1 {
			t.Fatalf("process groups %+v, want 1", h.PGs)
		}
		pg := h.PGs[0]
		if pg.PG != 0 || pg.Seq == nil || *pg.Seq != 30 || pg.TimedOut != 7 || pg.Started == "" {
			t.Errorf("group %d: timed out on %v by %d ranks, started %q; want group 0, work 30, 7 ranks, a start", pg.PG, pg.Seq, pg.TimedOut, pg.Started)
		}
		if len(pg.Suspects) != 1 || pg.Suspects[0].Rank != 5 {
			t.Fatalf("suspects %+v, want rank 5 alone", pg.Suspects)
		}
		if len(pg.Ranks) != 8 || pg.Ranks[5].State != "no-line" {
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
		all, dir := faultLog(t, cfg, prefix)
		t.Run("interleaved"+prefix, func(t *testing.T) { check(t, all, true) })
		t.Run("watchdog-only"+prefix, func(t *testing.T) { check(t, watchdogOnly(t, all), false) })
		if prefix == "" {
			t.Run("per-rank-files", func(t *testing.T) { check(t, dir, true) })
		}
	}
}

// TestHangWatchdogFixtures: hang reads the watchdog lines of a job without NCCL lines: the
// rank whose queue stops below the others' timeout is the suspect (exit 3), in the table, the
// JSON and the CSV; ranks that all entered the work, or that only signal dumps, give none.
func TestHangWatchdogFixtures(t *testing.T) {
	dir := filepath.Join("..", "..", "stages", "ranks", "testdata", "watchdog")
	out, _, code := runCLI(t, "", "hang", filepath.Join(dir, "straggler-queue.log"))
	if code != exitFound || !strings.Contains(out, "1. rank 2, score 90") || !strings.Contains(out, "last enqueued 56, last completed 56") ||
		!strings.Contains(out, "which started at 04-11 23:54:10.500") {
		t.Errorf("straggler: exit %d:\n%s", code, out)
	}
	csv, _, code := runCLI(t, "", "hang", "--format", "csv", filepath.Join(dir, "straggler-queue.log"))
	if code != exitFound || !strings.Contains(csv, "\n\"process group 0 (default_pg, GUID 0)\",,2,,,90,") {
		t.Errorf("straggler csv: exit %d:\n%s", code, csv)
	}
	for _, name := range []string{"network.log", "dumps-only.log"} {
		var h pgOnly
		runJSON(t, &h, exitOK, "hang", "--format", "json", filepath.Join(dir, name))
		if len(h.PGs) != 1 || len(h.PGs[0].Suspects) != 0 {
			t.Errorf("%s: %+v, want one group and no suspect", name, h.PGs)
		}
		out, _, _ := runCLI(t, "", "hang", filepath.Join(dir, name))
		if !strings.Contains(out, "nothing points to a hang in any process group") {
			t.Errorf("%s:\n%s", name, out)
		}
	}
}

// TestHangWatchdogFirstWork: where the straggler never issued a call at all, its evidence
// says so instead of naming a last call it does not have.
func TestHangWatchdogFirstWork(t *testing.T) {
	all, _ := faultLog(t, gen.Config{WatchdogRank: gen.Rank(5), WatchdogSeq: 1, CleanAbort: true}, "torchrun")
	out, _, code := runCLI(t, "", "hang", all)
	if code != exitFound || !strings.Contains(out, "it issued no call on comm") || strings.Contains(out, "after 0 calls") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

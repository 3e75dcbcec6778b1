package main

import (
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
	// Ranks that all timed out are a hang no rank explains (diagnose reads its cause); dump
	// signals alone are none.
	for name, closing := range map[string]string{
		"network.log":    "4 ranks timed out and none stands out (see above): the job hung; what caused it: nccllog diagnose",
		"dumps-only.log": "nothing points to a hang in any process group",
	} {
		var h pgOnly
		runJSON(t, &h, exitOK, "hang", "--format", "json", filepath.Join(dir, name))
		if len(h.PGs) != 1 || len(h.PGs[0].Suspects) != 0 {
			t.Errorf("%s: %+v, want one group and no suspect", name, h.PGs)
		}
		out, _, _ := runCLI(t, "", "hang", filepath.Join(dir, name))
		if !strings.Contains(out, closing) || strings.Contains(out, "the job hung") != (name == "network.log") {
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

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

func genLog(t *testing.T, c gen.Config) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestHangHealthyGrouped: on a healthy job, the communicators that say the same thing share
// one line (the eight pairs of a 16-rank job), the world communicator has its own, and the
// JSON still has one entry per communicator.
func TestHangHealthyGrouped(t *testing.T) {
	log := genLog(t, gen.Config{Seed: 1, Ranks: 16, Steps: 3})
	got, _, code := runCLI(t, log, "hang", "-")
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if code != exitOK || len(lines) != 4 || !strings.HasPrefix(lines[0], "comm 0x") ||
		!strings.Contains(lines[1], " and 4 more), each: 2 ranks, 2 with lines") || !strings.HasPrefix(lines[1], "8 comms (0x") ||
		!strings.HasSuffix(lines[1], "none is behind, and none aborted alone") || strings.Contains(got, "score") {
		t.Errorf("exit %d:\n%s", code, got)
	}
	js, _, _ := runCLI(t, log, "hang", "--format", "json", "-")
	if n := strings.Count(js, `"comm":`); n != 9 {
		t.Errorf("JSON has %d comms, want 9", n)
	}
}

// TestHangSuspectNotGrouped: where a rank is a suspect, every communicator keeps its
// paragraph, and one line under them says what the scores add up.
func TestHangSuspectNotGrouped(t *testing.T) {
	log := genLog(t, gen.Config{Seed: 1, Ranks: 16, Steps: 3, StopRank: new(3), StopAfter: 20})
	got, _, _ := runCLI(t, log, "hang", "-")
	legend := "\nscore: the sum of the weights of a rank's evidence (no lines 100; behind 50-90"
	if strings.Contains(got, " comms (") || strings.Count(got, "\ncomm ")+1 != 9 || strings.Count(got, legend) != 1 ||
		strings.Contains(got, "watchdog: never reached") {
		t.Errorf("got:\n%s", got)
	}
}

// TestHangPGScoreLegend: where a process group's suspects have scores, the legend gives the
// watchdog weights too.
func TestHangPGScoreLegend(t *testing.T) {
	log := genLog(t, gen.Config{Seed: 1, Ranks: 8, Steps: 5, WatchdogRank: new(3), WatchdogSeq: 20})
	got, _, _ := runCLI(t, log, "hang", "-")
	if !strings.Contains(got, "; watchdog: never reached the work 90, no watchdog line 70, NCCL calls behind +10); it only orders the suspects.\n") {
		t.Errorf("got:\n%s", got)
	}
}

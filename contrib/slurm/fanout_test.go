package slurm_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// script is the fan-out under test, run as users run it (its #! line and mode).
const script = "./nccllog-fanout"

// commands are what TestFanOut runs over the partials and over the original logs.
var commands = [][]string{
	{"report"}, {"report", "--format", "json"},
	{"hang"}, {"hang", "--format", "json"},
	{"check"}, {"check", "--format", "json"},
	{"ranks"}, {"comms"}, {"stats"}, {"agg"}, {"steps"},
}

// TestFanOut: nccllog-fanout summarizes each node's logs on that node through srun -N4, and
// every command over the four partials prints what it prints over all the original files,
// with the same exit status (3 for hang and check: the job has a hung and a mismatched rank).
func TestFanOut(t *testing.T) {
	c, bin, logs := fixture(t)
	requireSummarize(t, bin)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out := filepath.Join(t.TempDir(), "parts")
	r := run(t, c.Command(ctx, script, "-o", out, "-N", "4", "--nccllog", bin, logs+"/%n"))
	if r.status != 0 {
		t.Fatalf("nccllog-fanout: exit status %d: %s", r.status, r.stderr)
	}
	var parts []string
	for _, n := range nodes {
		parts = append(parts, filepath.Join(out, n+".part"))
	}
	if got := strings.Fields(r.stdout); !slices.Equal(got, parts) {
		t.Fatalf("nccllog-fanout printed %q, want %q", got, parts)
	}
	for _, args := range commands {
		name := strings.Join(args, " ")
		fromParts := nccllog(ctx, t, bin, append(args, parts...)...)
		fromLogs := nccllog(ctx, t, bin, append(args, logs)...)
		if fromLogs.stdout == "" || (args[0] == "hang" || args[0] == "check") != (fromLogs.status == 3) {
			t.Fatalf("%s over the logs: exit status %d, %d bytes out: the job's faults went unseen: %s",
				name, fromLogs.status, len(fromLogs.stdout), fromLogs.stderr)
		}
		if fromParts != fromLogs {
			t.Errorf("%s: over the partials (status %d) and over the logs (status %d) differ:\n--- partials\n%s%s\n--- logs\n%s%s",
				name, fromParts.status, fromLogs.status, fromParts.stdout, fromParts.stderr, fromLogs.stdout, fromLogs.stderr)
		}
	}
}

// requireSummarize skips t where this build of nccllog has no summarize command yet.
func requireSummarize(t *testing.T, bin string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if r := nccllog(ctx, t, bin, "summarize", "--help"); r.status != 0 {
		t.Skipf("nccllog has no summarize command: %s", strings.TrimSpace(r.stderr))
	}
}

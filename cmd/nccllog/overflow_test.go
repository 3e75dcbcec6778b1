package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/ranks"
)

// TestCommsPastCap: a log of more communicators than are kept in detail says so in one line
// on stderr, and comms' totals (detail plus overflow) count every call; also over a partial
// result, and with a cycled comm pointer, whose closed communicators are folded first.
func TestCommsPastCap(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the communicator cap (a memory bound) takes over 16,384 distinct communicators; runs without -short")
	}
	const n = ranks.MaxComms + 1000
	dir := t.TempDir()
	for _, kind := range []string{gen.DistinctComms, gen.DistinctCycle} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			commsPastCap(t, dir, kind, n)
		})
	}
}

// commsPastCap writes n distinct communicators of kind, summarizes them, and reads the log
// and the partial with comms: one line says the cap was met, and every communicator and
// call is counted once, in detail or in the overflow.
func commsPastCap(t *testing.T, dir, kind string, n int64) {
	log := filepath.Join(dir, kind+".log")
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := gen.WriteDistinct(f, kind, n); err != nil {
		t.Fatal(err)
	}
	f.Close()
	part := filepath.Join(dir, kind+".part")
	if _, stderr, code := runCLI(t, "", "summarize", "-o", part, log); code != exitOK {
		t.Fatalf("summarize: exit %d: %s", code, stderr)
	}
	for _, in := range []string{log, part} {
		var out ranks.CommsReport
		stdout, stderr, code := runCLI(t, "", "comms", "--format", "json", in)
		if code != exitOK || jsonUnmarshal(stdout, &out) != nil {
			t.Fatalf("%s: exit %d, %s", in, code, stderr)
		}
		if !strings.Contains(stderr, "nccllog: more than "+count(ranks.MaxComms)+" communicators: per-communicator detail truncated, totals exact") ||
			strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: stderr %q, want the one line that says the cap was met", in, stderr)
		}
		calls := int64(0)
		for _, c := range out.Comms {
			calls += c.Calls
		}
		if out.Overflow == nil || int64(len(out.Comms))+out.Overflow.Comms != n || calls+out.Overflow.Calls != n {
			t.Errorf("%s: %d communicators with %d calls and overflow %+v; want %d in all", in, len(out.Comms), calls, out.Overflow, n)
		}
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

func TestParseSize(t *testing.T) {
	good := map[string]int64{
		"4096": 4096, "1GiB": 1 << 30, "100MiB": 100 << 20, "500M": 500 << 20,
		"10MB": 10_000_000, "2k": 2048, "3gb": 3_000_000_000, "7B": 7,
	}
	for in, want := range good {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "GiB", "-1", "1.5G", "12XB", "1Gi", "99999999999T"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestRunExitCodes(t *testing.T) {
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"--steps", "2", "--ranks", "2"}, 0},
		{[]string{"--help"}, 0},
		{[]string{"--bogus"}, 2},
		{[]string{"--size", "lots"}, 2},
		{[]string{"--prefix", "slurm"}, 2},
		{[]string{"--progress", "keras"}, 2},
		{[]string{"--nccl-version", "2.8.3"}, 2},
		{[]string{"stray"}, 2},
		{[]string{"--steps", "1", "-o", "/nonexistent-dir/x.log"}, 1},
		{[]string{"--steps", "2", "--ranks", "4", "--teardown", "--stop-rank", "0", "--stop-after", "3",
			"--mismatch-rank", "1", "--mismatch-call", "2", "--mismatch-kind", "dtype", "--abort-rank", "0", "--missing-rank", "3"}, 0},
		{[]string{"--stop-after", "3"}, 2},
		{[]string{"--steps", "4", "--failure", "exit-slurm", "--failure-host", "0"}, 0},
		{[]string{"--steps", "4", "--failure", "shared-timeout", "--glue-watchdog"}, 0},
		{[]string{"--steps", "4", "--failure", "ras", "--nccl-version", "2.24.3", "--failure-rank", "3"}, 0},
		{[]string{"--failure", "crash"}, 2},
		{[]string{"--failure-rank", "3"}, 2},
		{[]string{"--failure", "oom", "--failure-rank", "3", "--failure-host", "1"}, 2},
		{[]string{"--failure", "oom", "--failure-host", "2"}, 2},
		{[]string{"--failure", "oom", "--glue-watchdog"}, 2},
		{[]string{"--failure", "ras"}, 2},
		{[]string{"--stop-rank", "16"}, 2},
		{[]string{"--stop-rank", "1", "--stop-after", "-1"}, 2},
		{[]string{"--mismatch-kind", "dtype"}, 2},
		{[]string{"--mismatch-call", "3"}, 2},
		{[]string{"--mismatch-rank", "1", "--mismatch-kind", "op"}, 2},
		{[]string{"--abort-rank", "-1"}, 2},
		{[]string{"--missing-rank", "2", "--abort-rank", "2"}, 2},
		{[]string{"--per-rank-dir", "x", "--prefix", "srun"}, 2},
		{[]string{"--per-rank-dir", "x", "-o", "y.log"}, 2},
		{[]string{"--steps", "1", "--per-rank-dir", "/dev/null/x"}, 1},
		{[]string{"--mix", "text", "--size", "4KiB"}, 0},
		{[]string{"--mix", "lines", "--size", "4KiB"}, 2},
		{[]string{"--mix", "text"}, 2},
		{[]string{"--mix", "text", "--size", "4KiB", "--per-rank-dir", "x"}, 2},
		{[]string{"--mix", "binary", "--size", "4KiB", "-o", "/nonexistent-dir/x.log"}, 1},
		{[]string{"--distinct", "comms", "--count", "3"}, 0},
		{[]string{"--distinct", "steps", "--count", "3", "-o", "/nonexistent-dir/x.log"}, 1},
		{[]string{"--distinct", "pointers", "--count", "3"}, 2},
		{[]string{"--distinct", "cycle", "--count", "0"}, 2},
		{[]string{"--distinct", "files", "--count", "3"}, 2},
		{[]string{"--distinct", "shapes", "--per-rank-dir", "x"}, 2},
		{[]string{"--steps", "1", "--timestamps", "nccl-all", "--timestamp-digits", "6", "--clock-skew", "250ms"}, 0},
		{[]string{"--steps", "1", "--timestamps", "iso", "--prefix", "srun"}, 0},
		{[]string{"--timestamps", "rfc822"}, 2},
		{[]string{"--timestamps", "iso", "--timestamp-digits", "10"}, 2},
		{[]string{"--clock-skew", "1s"}, 2},
		{[]string{"--clock-skew", "soon", "--timestamps", "iso"}, 2},
		{[]string{"--timestamps", "iso", "--prefix", "timestamp"}, 2},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != c.code {
			t.Errorf("run(%v) = %d, want %d (stderr %q)", c.args, code, c.code, errb.String())
		}
		if msg := errb.String(); c.code != 0 && (!strings.HasPrefix(msg, "nccllog-gen: ") || strings.Count(msg, "\n") != 1) {
			t.Errorf("run(%v): stderr %q, want one nccllog-gen: line", c.args, msg)
		}
	}
}

func TestHelpListsFaultFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, &out, &errb); code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	for _, f := range []string{"--per-rank-dir", "--teardown", "--stop-rank", "--stop-after", "--mismatch-rank",
		"--mismatch-call", "--mismatch-kind", "--abort-rank", "--missing-rank", "--timestamps", "--timestamp-digits", "--clock-skew"} {
		if !strings.Contains(out.String(), f) {
			t.Errorf("--help does not mention %s", f)
		}
	}
}

func TestPerRankDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	args := []string{"--steps", "3", "--ranks", "4", "--ranks-per-host", "2", "--seed", "5", "--noise",
		"--per-rank-dir", dir, "--missing-rank", "2", "--stop-rank", "1", "--stop-after", "9", "--abort-rank", "1"}
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	paths := strings.Fields(out.String())
	nameRe := regexp.MustCompile(`^nccl\.gpu-node-0[01]\.\d+\.log$`)
	if len(paths) != 3 {
		t.Fatalf("printed %d paths, want 3 (rank 2 is missing): %q", len(paths), out.String())
	}
	for _, p := range paths {
		if filepath.Dir(p) != dir || !nameRe.MatchString(filepath.Base(p)) {
			t.Errorf("path %q is not DIR/nccl.%%h.%%p.log", p)
		}
	}
	// The same flags give the same files as gen.WriteFiles.
	cfg := gen.Config{Seed: 5, Ranks: 4, RanksPerHost: 2, Steps: 3, Noise: true, MissingRank: gen.Rank(2),
		StopRank: gen.Rank(1), StopAfter: 9, AbortRank: gen.Rank(1)}
	want, err := gen.WriteFiles(t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range paths {
		a, _ := os.ReadFile(p)
		b, _ := os.ReadFile(want[i])
		if filepath.Base(p) != filepath.Base(want[i]) || !bytes.Equal(a, b) || len(a) == 0 {
			t.Errorf("%s differs from gen.WriteFiles's %s", p, want[i])
		}
	}
	if a, _ := os.ReadFile(paths[1]); !bytes.Contains(a, []byte(" - Abort COMPLETE\n")) {
		t.Errorf("rank 1's file has no Abort COMPLETE line")
	}
}

// TestFailureHost: --failure-host H makes the second rank of host H fail first.
func TestFailureHost(t *testing.T) {
	cfg, _, err := parseArgs([]string{"--failure", "oom", "--failure-host", "1", "--ranks", "8", "--ranks-per-host", "4"}, &bytes.Buffer{})
	if err != nil || cfg.FailureRank == nil || *cfg.FailureRank != 5 {
		t.Fatalf("parseArgs: %+v, %v; want FailureRank 5", cfg, err)
	}
	var out bytes.Buffer
	if code := run([]string{"--steps", "4", "--failure", "oom", "--failure-host", "1"}, &out, &bytes.Buffer{}); code != 0 ||
		!strings.Contains(out.String(), "gpu-node-01:") || !strings.Contains(out.String(), "torch.OutOfMemoryError") {
		t.Errorf("exit %d, or no OOM in the output", code)
	}
}

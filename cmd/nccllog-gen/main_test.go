package main

import (
	"bytes"
	"strings"
	"testing"
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

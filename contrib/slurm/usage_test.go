package slurm_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFanOutRefuses: nccllog-fanout refuses what it cannot do before it starts anything on
// the nodes, with one line saying why and the exit status of a usage error (2), or of a
// failure (1) for an output directory that holds another run's partials. It needs no Slurm.
func TestFanOutRefuses(t *testing.T) {
	used := t.TempDir()
	if err := os.WriteFile(filepath.Join(used, "gpu-node-07.part"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "parts")
	cases := []struct {
		name   string
		args   []string
		status int
		says   string
	}{
		{"no output directory", []string{"/tmp/nccl.*.log"}, 2, "no output directory: give -o DIR"},
		{"-o without a value", []string{"-o"}, 2, "-o needs a value"},
		{"no pattern", []string{"-o", out, "-N", "2"}, 2, "no PATTERN"},
		{"standard input", []string{"-o", out, "-N", "2", "-"}, 2, "standard input cannot be fanned out"},
		{"outside an allocation", []string{"-o", out, "/tmp/nccl.*.log"}, 2, "not inside a Slurm allocation"},
		{"zero nodes", []string{"-o", out, "-N", "0", "x"}, 2, "-N 0: want a number of nodes"},
		{"unknown option", []string{"--bogus", "-o", out, "x"}, 2, "unknown option --bogus"},
		{"--ship outside an allocation", []string{"--ship", "-o", out, "-N", "2", "x"}, 2, "--ship needs an allocation"},
		{"--ship-to without --ship", []string{"--ship-to", "/tmp/n", "-o", out, "-N", "2", "x"}, 2, "--ship-to goes with --ship"},
		{"another run's partials", []string{"-o", used, "-N", "2", "x"}, 1, "already holds partial results (" + used + "/gpu-node-07.part)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := fanout(t, tc.args...)
			first, _, _ := strings.Cut(r.stderr, "\n")
			if r.status != tc.status || !strings.HasPrefix(first, "nccllog-fanout: ") || !strings.Contains(first, tc.says) || r.stdout != "" {
				t.Errorf("nccllog-fanout %q: status %d, stdout %q, stderr %q; want status %d and a first line saying %q",
					tc.args, r.status, r.stdout, r.stderr, tc.status, tc.says)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused run created %s", out)
	}
}

// TestFanOutHelp: --help prints the usage on stdout and exits 0.
func TestFanOutHelp(t *testing.T) {
	r := fanout(t, "--help")
	if r.status != 0 || !strings.HasPrefix(r.stdout, "Usage: nccllog-fanout [options] -o DIR PATTERN...") || r.stderr != "" {
		t.Errorf("--help: status %d, stdout %q, stderr %q", r.status, r.stdout, r.stderr)
	}
}

// fanout runs the script outside any Slurm job: without the SLURM_ variables of one the
// test itself may run in.
func fanout(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	return run(t, cmd)
}

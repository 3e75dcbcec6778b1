package slurm_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/slurmtest"
)

// script is the fan-out under test, run as users run it (its #! line and mode).
const script = "./nccllog-fanout"

// commands are what TestFanOut runs over the partials and over the original logs: all that
// read partials (split and calls need the logs themselves).
var commands = [][]string{
	{"report"}, {"report", "--format", "json"}, {"info"}, {"info", "--format", "json"},
	{"hang"}, {"hang", "--format", "json"},
	{"check"}, {"check", "--format", "json"},
	{"ranks"}, {"comms"}, {"stats"}, {"hist"}, {"agg"}, {"steps"},
}

// TestFanOut: nccllog-fanout summarizes each node's logs on that node, one task per node, and
// every command that reads partials prints over the four partials what it prints over all the
// original files, with the same exit status (3 for hang and check: the job has a hung and a
// mismatched rank); so does every command over partials of some nodes and the raw logs of the
// others, and over partials of only some steps under the same --steps. A node without logs
// fails the fan-out (see nodeFails). The cases share one cluster, build and job: starting
// them is most of the test's time.
func TestFanOut(t *testing.T) {
	c, bin, logs := fixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// As in a training job's batch script: inside an allocation of several tasks per node.
	parts := fanOut(t, c.Command(ctx, "salloc", "-N4", "--ntasks-per-node=2", script,
		"-o", filepath.Join(t.TempDir(), "parts"), "--nccllog", bin, logs+"/%n"))
	t.Run("partials", func(t *testing.T) {
		sameOutput(ctx, t, bin, nil, parts, []string{logs})
	})
	t.Run("partials and logs", func(t *testing.T) {
		mixed := append(slices.Clone(parts[:3]), filepath.Join(logs, nodes[3]))
		sameOutput(ctx, t, bin, nil, mixed, []string{logs})
	})
	t.Run("steps", func(t *testing.T) {
		steps := []string{"--steps", "2-4"}
		dir := filepath.Join(t.TempDir(), "parts")
		// Outside an allocation: srun allocates the nodes.
		args := append([]string{"-o", dir, "-N", "4", "--nccllog", bin, logs + "/%n/*.log"}, steps...)
		stepParts := fanOut(t, c.Command(ctx, script, args...))
		sameOutput(ctx, t, bin, steps, stepParts, []string{logs})
	})
	t.Run("shipped", func(t *testing.T) { shipped(ctx, t, c, bin, logs) })
	t.Run("a node fails", func(t *testing.T) { nodeFails(t, c, bin, logs) })
}

// shipped: with --ship, the fan-out sends the binary it is given to every node with sbcast,
// runs that copy, and removes it afterwards; the partials are what the installed binary
// writes. (The test cluster's nodes share this machine's disk, so the copy's path is one
// file that every node writes.)
func shipped(ctx context.Context, t *testing.T, c *slurmtest.Cluster, bin, logs string) {
	dir := t.TempDir()
	dest, ran := filepath.Join(dir, "shipped-nccllog"), filepath.Join(dir, "ran")
	// What is shipped: a wrapper that notes the path it runs from, then runs nccllog.
	wrapper := filepath.Join(dir, "nccllog-wrapper")
	text := "#!/bin/sh\necho \"$0\" >>" + ran + "\nexec " + bin + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	parts := fanOut(t, c.Command(ctx, "salloc", "-N4", script, "--ship", "--ship-to", dest,
		"-o", filepath.Join(dir, "parts"), "--nccllog", wrapper, logs+"/%n"))
	if got, _ := os.ReadFile(ran); strings.Count(string(got), dest+"\n") != len(nodes) {
		t.Errorf("the nodes ran %q, want the shipped copy %s once a node", got, dest)
	}
	sameOutput(ctx, t, bin, nil, parts, []string{logs})
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Errorf("the shipped binary %s is still there after the fan-out (stat: %v)", dest, err)
	}
}

// fanOut runs nccllog-fanout, writing into DIR/NODE.part for the cluster's four nodes, and
// returns the partials it printed.
func fanOut(t *testing.T, cmd *exec.Cmd) []string {
	t.Helper()
	r := run(t, cmd)
	if r.status != 0 {
		t.Fatalf("%s: exit status %d: %s", cmd, r.status, r.stderr)
	}
	out := cmd.Args[slices.Index(cmd.Args, "-o")+1]
	var parts []string
	for _, n := range nodes {
		parts = append(parts, filepath.Join(out, n+".part"))
	}
	if got := strings.Fields(r.stdout); !slices.Equal(got, parts) {
		t.Fatalf("nccllog-fanout printed %q, want %q", got, parts)
	}
	return parts
}

// sameOutput runs every command with flags over inputs and over logs, and wants the same
// output and exit status from both.
func sameOutput(ctx context.Context, t *testing.T, bin string, flags, inputs, logs []string) {
	t.Helper()
	for _, args := range commands {
		args = append(slices.Clone(args), flags...)
		name := strings.Join(args, " ")
		got := nccllog(ctx, t, bin, append(args, inputs...)...)
		want := nccllog(ctx, t, bin, append(args, logs...)...)
		if want.stdout == "" || (args[0] == "hang" || args[0] == "check") != (want.status == 3) {
			t.Fatalf("%s over the logs: exit status %d, %d bytes out: the job's faults went unseen: %s",
				name, want.status, len(want.stdout), want.stderr)
		}
		if got != want {
			t.Errorf("%s: over %d partials and logs (status %d) and over the logs (status %d) differ:\n--- partials\n%s%s\n--- logs\n%s%s",
				name, len(inputs), got.status, want.status, got.stdout, got.stderr, want.stdout, want.stderr)
		}
	}
}

// nodeFails: a node without logs fails the fan-out (exit status 1) with an error naming it,
// and leaves no partial of its own, not even a temporary one; the other nodes' partials are
// written.
func nodeFails(t *testing.T, c *slurmtest.Cluster, bin, logs string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sparse := t.TempDir() // every node's logs but gpu-node-02's
	for _, n := range nodes {
		if n != "gpu-node-02" {
			if err := os.Symlink(filepath.Join(logs, n), filepath.Join(sparse, n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := filepath.Join(t.TempDir(), "parts")
	r := run(t, c.Command(ctx, script, "-o", out, "-N", "4", "--nccllog", bin, sparse+"/%n/*.log"))
	if r.status != 1 || !strings.Contains(r.stderr, "nccllog-fanout: gpu-node-02: nccllog summarize failed") ||
		!strings.Contains(r.stderr, "3 of 4 nodes wrote a partial") {
		t.Errorf("fan-out with gpu-node-02's logs missing: status %d, stderr:\n%s\nwant status 1 and an error naming gpu-node-02", r.status, r.stderr)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"gpu-node-00.part", "gpu-node-01.part", "gpu-node-03.part"}; !slices.Equal(names, want) {
		t.Errorf("the fan-out left %q in %s, want %q", names, out, want)
	}
}

package slurm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/internal/slurmtest"
)

// nodes are the test cluster's node names: those of the generated hosts, so that each node's
// logs are those its own ranks would have written.
var nodes = []string{"gpu-node-00", "gpu-node-01", "gpu-node-02", "gpu-node-03"}

// job is a generated 16-rank job, 4 ranks per node, with one rank that hangs and one that
// logs another datatype, so that hang and check have something to say; its logs are spread
// over one directory per node (LOGS/NODE/nccl.NODE.PID.log), as node-local disks hold them.
func job() gen.Config {
	return gen.Config{Seed: 15, Ranks: 16, RanksPerHost: 4, Steps: 6, Noise: true,
		StopRank: gen.Rank(9), StopAfter: 40,
		MismatchRank: gen.Rank(2), MismatchCall: 17, MismatchKind: "dtype"}
}

// fixture starts the cluster, builds nccllog while it starts, and writes the job's logs. It
// returns the cluster, the nccllog binary and the logs' root directory.
func fixture(t *testing.T) (*slurmtest.Cluster, string, string) {
	t.Helper()
	slurmtest.Require(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "nccllog")
	built := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		out, err := exec.Command("go", "build", "-o", bin, "github.com/nccllog/nccllog/cmd/nccllog").CombinedOutput()
		if err != nil {
			err = fmt.Errorf("go build: %v: %s", err, out)
		}
		built <- err
	}()
	// When the cluster cannot start (a skip or a failure), the build goes on writing into dir;
	// wait for it before dir is removed, or the binary outlives the test in the temp folder.
	t.Cleanup(func() { <-done })
	c := slurmtest.Start(t, nodes...)
	if err := <-built; err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(dir, "logs")
	spreadByNode(t, filepath.Join(dir, "gen"), logs)
	return c, bin, logs
}

// spreadByNode generates the job's per-process files into genDir and moves each into
// logs/HOST/.
func spreadByNode(t *testing.T, genDir, logs string) {
	t.Helper()
	paths, err := gen.WriteFiles(genDir, job())
	if err != nil {
		t.Fatal(err)
	}
	host := regexp.MustCompile(`^nccl\.(.+)\.\d+\.log$`)
	for _, p := range paths {
		m := host.FindStringSubmatch(filepath.Base(p))
		if m == nil {
			t.Fatalf("generated file %s: no host in its name", p)
		}
		nodeDir := filepath.Join(logs, m[1])
		if err := os.MkdirAll(nodeDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p, filepath.Join(nodeDir, filepath.Base(p))); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range nodes {
		if _, err := os.Stat(filepath.Join(logs, n)); err != nil {
			t.Fatalf("no logs for node %s: %v", n, err)
		}
	}
}

// result is one command's output and exit status.
type result struct {
	stdout, stderr string
	status         int
}

// run runs cmd and returns what it printed and its exit status; it fails t only where cmd
// could not be run at all.
func run(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s: %v", cmd, err)
	}
	return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

// nccllog runs the nccllog binary with args.
func nccllog(ctx context.Context, t *testing.T, bin string, args ...string) result {
	t.Helper()
	return run(t, exec.CommandContext(ctx, bin, args...))
}

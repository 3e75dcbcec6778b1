package slurmtest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestClusterRunsOneTaskPerNode: srun -N over the whole cluster runs one task on each node,
// and each task sees its own node's name.
func TestClusterRunsOneTaskPerNode(t *testing.T) {
	nodes := []string{"node-a", "node-b", "node-c"}
	c := Start(t, nodes...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := c.Command(ctx, "srun", "-N3", "--ntasks-per-node=1", "sh", "-c", `echo "$SLURMD_NODENAME"`).CombinedOutput()
	if err != nil {
		t.Fatalf("srun: %v: %s", err, out)
	}
	got := strings.Fields(string(out))
	slices.Sort(got)
	if !slices.Equal(got, nodes) {
		t.Errorf("tasks ran on %q, want one on each of %q", got, nodes)
	}
}

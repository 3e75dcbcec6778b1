package slurmtest

import (
	"fmt"
	"os"
	"testing"
)

// Env names the variable that requires the cluster: with NCCLLOG_SLURM=1 a cluster that
// cannot be started fails the test instead of skipping it.
const Env = "NCCLLOG_SLURM"

// Required says whether the environment requires the cluster to start.
func Required() bool { return os.Getenv(Env) == "1" }

// unavailable skips t with reason, or fails it where the cluster is required.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	reason := fmt.Sprintf(format, args...)
	if Required() {
		t.Fatalf("%s=1: %s", Env, reason)
	}
	t.Skipf("%s (set %s=1 to require it)", reason, Env)
}

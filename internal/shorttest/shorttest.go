// Package shorttest sets up the test binaries of a `go test -short` run, to share work that
// the tests repeat without changing what any of them checks. The full run (no -short) keeps
// the runtime's defaults.
package shorttest

import (
	"flag"
	"os"
	"runtime/debug"
	"testing"
)

// GCPercent is the collector's goal in a -short run.
//
// The tests build many short-lived heaps a few MB each (a generated job's lines, a Ranks per
// cut, a CLI run's buffers) over a live heap of a few MB. At the default goal (GOGC=100, a 4
// MB heap at the least) that is a collection every few MB allocated, and the scavenger hands
// the freed pages back to the OS between them, so the next large allocation faults them in and
// clears them again. At 400, stages/ranks' -short tests take half the CPU they took and
// cmd/nccllog's three quarters, and the test binaries' heaps stay under 500 MB. No test's
// checks depend on the goal: the memory bounds compare TotalAlloc, or HeapAlloc after
// runtime.GC, which it does not change.
const GCPercent = 400

// Main runs m's tests and exits with their status. Under -short it sets the collector's
// goal to GCPercent (unless GOGC is set).
func Main(m *testing.M) {
	flag.Parse()
	if testing.Short() && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	os.Exit(m.Run())
}

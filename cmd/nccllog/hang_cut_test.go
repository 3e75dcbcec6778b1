package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// TestHangLogEndsInCalls: a healthy job's log cut while its ranks issue calls a few apart (as
// a job still running or stopped by a time limit leaves it) exits 0 from hang and check, and
// hang says why per communicator (stages/ranks' TestHangLogEndsInCalls holds the Report).
func TestHangLogEndsInCalls(t *testing.T) {
	var b bytes.Buffer
	if _, err := gen.Write(&b, gen.Config{Seed: 1, Ranks: 16, Steps: 6, CleanAbort: true}); err != nil {
		t.Fatal(err)
	}
	cut := strings.Join(strings.SplitAfter(b.String(), "\n")[:1918], "")
	got, _, code := runCLI(t, cut, "hang", "-")
	if code != exitOK || !strings.Contains(got, "a few calls apart, as a log that ends while the job issues calls stops them") ||
		!strings.Contains(got, "as the log ends while their processes issue calls on another communicator") {
		t.Errorf("hang: exit %d:\n%s", code, got)
	}
	if _, _, code := runCLI(t, cut, "check", "-"); code != exitOK {
		t.Errorf("check: exit %d, want %d", code, exitOK)
	}
}

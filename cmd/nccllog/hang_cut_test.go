package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// TestHangLogEndsInCalls: a healthy job's log cut while its ranks issue calls a few apart (as
// a job still running or stopped by a time limit leaves it) gives hang and check no finding,
// says so per communicator, and names the reason in JSON: for the world communicator, where
// its ranks stop; for a pair of ranks one call apart, that their processes stop that way on
// the world communicator.
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
	got, _, _ = runCLI(t, cut, "hang", "--format", "json", "-")
	var h struct {
		Comms []struct {
			NRanks   int64 `json:"nranks"`
			Coverage struct {
				EndsCut bool   `json:"ends_cut"`
				CutFrom *int64 `json:"cut_from"`
				CutWhy  string `json:"cut_why"`
			} `json:"coverage"`
		} `json:"comms"`
	}
	if err := json.Unmarshal([]byte(got), &h); err != nil {
		t.Fatal(err)
	}
	why := map[string]bool{}
	for _, c := range h.Comms {
		if c.Coverage.EndsCut != (c.Coverage.CutFrom != nil) {
			t.Errorf("comm of %d ranks: ends_cut %v, cut_from %v", c.NRanks, c.Coverage.EndsCut, c.Coverage.CutFrom)
		}
		why[c.Coverage.CutWhy] = true
	}
	if !why["log-ends-in-calls"] || !why["processes-in-calls"] {
		t.Errorf("cut_why seen %v, want log-ends-in-calls and processes-in-calls", why)
	}
}

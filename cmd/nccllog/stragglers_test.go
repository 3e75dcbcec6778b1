package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// TestStragglersCommand: the table names a generated job's straggler and its late steps, the
// JSON holds the fields, and a healthy or untimed job exits 0 saying nobody stands out.
func TestStragglersCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, c gen.Config) string {
		var b bytes.Buffer
		if _, err := gen.Write(&b, c); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	job := gen.Config{Seed: 3, Ranks: 32, Steps: 12, Timestamps: "iso"}
	late := job
	late.Stragglers = []gen.Straggler{{Rank: 20, Kind: gen.StragglerChronic}}
	lateLog, healthy := write("late.log", late), write("healthy.log", job)
	out, errOut, code := runCLI(t, "", "stragglers", lateLog)
	if code != 0 || errOut != "" || !strings.Contains(out, " chronic ") || !strings.Contains(out, "rank 20 late on steps 0 (") {
		t.Fatalf("exit %d, stderr %q, table:\n%s", code, errOut, out)
	}
	out, _, code = runCLI(t, "", "stragglers", "--format", "json", lateLog)
	var rep struct {
		Stragglers []map[string]any `json:"stragglers"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || len(rep.Stragglers) != 1 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	for _, k := range []string{"rank", "host", "pid", "comm", "kind", "last_share", "median_lag_ms", "p95_lag_ms", "steps"} {
		if _, ok := rep.Stragglers[0][k]; !ok {
			t.Errorf("no %q in %v", k, rep.Stragglers[0])
		}
	}
	untimed := job
	untimed.Timestamps = ""
	for _, p := range []string{healthy, write("untimed.log", untimed)} {
		out, _, code := runCLI(t, "", "stragglers", p)
		if code != 0 || !strings.HasPrefix(out, "no straggler: no rank's calls stand out") {
			t.Fatalf("%s: exit %d:\n%s", p, code, out)
		}
	}
}

package slurm_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// reportJSON is the part of `nccllog report --format json` that adds up across inputs.
type reportJSON struct {
	Inputs []struct {
		File  string           `json:"file"`
		Lines map[string]int64 `json:"lines"`
	} `json:"inputs"`
	Lines map[string]int64 `json:"lines"`
	Agg   struct {
		Groups []aggGroup `json:"groups"`
	} `json:"agg"`
}

type aggGroup struct {
	Op    string `json:"op"`
	Count int64  `json:"count"`
	Dtype string `json:"dtype"`
	Calls int64  `json:"calls"`
}

// merge adds r's line counts, inputs and (op, count, dtype) calls to m.
func (m *reportJSON) merge(r reportJSON) {
	m.Inputs = append(m.Inputs, r.Inputs...)
	if m.Lines == nil {
		m.Lines = map[string]int64{}
	}
	for k, v := range r.Lines {
		m.Lines[k] += v
	}
	for _, g := range r.Agg.Groups {
		i := slices.IndexFunc(m.Agg.Groups, func(h aggGroup) bool {
			return h.Op == g.Op && h.Count == g.Count && h.Dtype == g.Dtype
		})
		if i < 0 {
			m.Agg.Groups = append(m.Agg.Groups, g)
			continue
		}
		m.Agg.Groups[i].Calls += g.Calls
	}
}

// TestReportPerNode: srun runs `nccllog report --format json` on every node over that node's
// logs only; the inputs, line counts and (op, count, dtype) calls of the four reports, added
// up, are those of one report over every file.
func TestReportPerNode(t *testing.T) {
	c, bin, logs := fixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	outDir := t.TempDir()
	script := `exec "$0" report --format json "$1/$SLURMD_NODENAME" >"$2/$SLURMD_NODENAME.json"`
	r := run(t, c.Command(ctx, "srun", "-N4", "--ntasks-per-node=1", "sh", "-c", script, bin, logs, outDir))
	if r.status != 0 {
		t.Fatalf("srun: exit status %d: %s", r.status, r.stderr)
	}
	var merged reportJSON
	for _, n := range nodes {
		merged.merge(readReport(t, filepath.Join(outDir, n+".json")))
	}
	whole := nccllog(ctx, t, bin, "report", "--format", "json", logs)
	if whole.status != 0 {
		t.Fatalf("report over every file: exit status %d: %s", whole.status, whole.stderr)
	}
	var want reportJSON
	if err := json.Unmarshal([]byte(whole.stdout), &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Inputs) != 16 || want.Lines["collective"] == 0 {
		t.Fatalf("report over every file read %d inputs, %d collective lines; want 16 inputs with collectives", len(want.Inputs), want.Lines["collective"])
	}
	sortGroups := cmpopts.SortSlices(func(a, b aggGroup) bool {
		return a.Op+a.Dtype < b.Op+b.Dtype || (a.Op+a.Dtype == b.Op+b.Dtype && a.Count < b.Count)
	})
	if d := cmp.Diff(want, merged, sortGroups); d != "" {
		t.Errorf("per-node reports added up differ from one report over every file (-whole +merged):\n%s", d)
	}
}

func readReport(t *testing.T, path string) reportJSON {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r reportJSON
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

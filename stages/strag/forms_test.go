package strag_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/internal/sharedtest"
)

// TestStragglerEveryForm: a chronic straggler is named whatever form times its lines, if
// it prints milliseconds or finer; a form printing whole seconds lists nobody and says why.
func TestStragglerEveryForm(t *testing.T) {
	t.Parallel()
	for i, f := range []struct {
		form   string
		digits int
		named  bool
	}{{"nccl-all", 6, true}, {"nccl-all", 0, false}, {"iso", 0, true}, {"slash", 0, true}, {"bracketed", 0, true},
		{"syslog", 0, false}, {"syslog", 3, true}, {"glog", 0, true}, {"pylog", 0, true}} {
		if testing.Short() && i%3 != 0 && f.named {
			continue // -short: both coarse forms and every third named one
		}
		t.Run(f.form+map[bool]string{true: "", false: "-coarse"}[f.named || f.digits != 0], func(t *testing.T) {
			c := job()
			c.Timestamps, c.TimestampDigits = f.form, f.digits
			c.Stragglers = []gen.Straggler{{Rank: rank(12), Kind: gen.StragglerChronic}}
			path, _ := write(t, c)
			rep := report(t, 0, path)
			switch {
			case f.named && (len(rep.Stragglers) != 1 || rep.Stragglers[0].Rank != int64(rank(12))):
				t.Fatalf("want rank %d, got %+v", rank(12), rep.Stragglers)
			case !f.named && (len(rep.Stragglers) != 0 || rep.Note == ""):
				t.Fatalf("want nobody and a note, got %+v", rep)
			}
		})
	}
}

// TestPerProcessFiles: the job as one file per process gives the report of the interleaved
// log (only rank 0's file has the progress lines, which give the positions their steps).
func TestPerProcessFiles(t *testing.T) {
	t.Parallel()
	c := job()
	c.Stragglers = []gen.Straggler{{Rank: rank(50), Kind: gen.StragglerOneOff}}
	path, _ := write(t, c)
	files, err := gen.WriteFiles(filepath.Join(t.TempDir(), "logs"), c)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(report(t, 0, path))
	got, _ := json.Marshal(report(t, 16<<10, files...))
	if !bytes.Equal(got, want) {
		t.Fatalf("per-process files:\n%s\nwant\n%s", got, want)
	}
}

// TestSharedSamplesListNothing: none of the shared real logs has a straggler to name (few
// are timed finely enough, and those are healthy runs).
func TestSharedSamplesListNothing(t *testing.T) {
	t.Parallel()
	for _, p := range sharedtest.Glob(t, "samples/*.log") {
		t.Run(filepath.Base(p), func(t *testing.T) {
			if rep := report(t, 0, p); len(rep.Stragglers) != 0 {
				t.Fatalf("listed %+v", rep.Stragglers)
			}
		})
	}
}

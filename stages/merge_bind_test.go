package stages

import (
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// TestMergedBindingsInMergedGroups: after a job's per-process files are merged, every
// process's comm pointers are bound to the communicators of the merge, not to the
// per-file ones they were joined into: a binding to those kept each file's reference
// sequence alive to the end (hang over 2 GB of per-process files held 144 MiB of them).
func TestMergedBindingsInMergedGroups(t *testing.T) {
	files, err := gen.WriteFiles(t.TempDir(), gen.Config{Seed: 4, Ranks: 4, RanksPerHost: 2, Steps: 5})
	if err != nil {
		t.Fatal(err)
	}
	r := ranksOf(t, files...)
	in := map[*Group]bool{}
	for _, g := range r.groups {
		in[g] = true
	}
	n := 0
	for k, p := range r.procs {
		for ptr, b := range p.bind {
			n++
			if !in[b.g] {
				t.Errorf("process %s:%d in %s: comm %#x is bound to a communicator that is not the merge's", k.host, k.pid, k.file, ptr)
			}
		}
	}
	if n == 0 {
		t.Fatal("no process has a bound comm pointer")
	}
}

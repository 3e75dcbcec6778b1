package ranks

import (
	"math/rand/v2"
	"testing"
)

// TestBindingsAsMap: a process's bindings, two held in place and the rest in a map, answer
// as the map of every process did over random binds, rebinds and unbinds of a few pointers
// (0 among them: a redacted comm pointer).
func TestBindingsAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for run := range 200 {
		var bs bindings
		want := map[uint64]*binding{}
		ptrs := 1 + rng.IntN(6)
		for op := range 50 {
			ptr := uint64(rng.IntN(ptrs))
			switch rng.IntN(3) {
			case 0, 1:
				b := &binding{}
				bs.set(ptr, b)
				want[ptr] = b
			default:
				bs.del(ptr)
				delete(want, ptr)
			}
			for p := range uint64(ptrs) {
				if got := bs.get(p); got != want[p] {
					t.Fatalf("run %d op %d: pointer %d bound to %p, want %p", run, op, p, got, want[p])
				}
			}
			seen := map[uint64]*binding{}
			for p, b := range bs.all() {
				if _, dup := seen[p]; dup {
					t.Fatalf("run %d op %d: pointer %d listed twice", run, op, p)
				}
				seen[p] = b
			}
			if len(seen) != len(want) {
				t.Fatalf("run %d op %d: %d bindings listed, want %d", run, op, len(seen), len(want))
			}
			for p, b := range want {
				if seen[p] != b {
					t.Fatalf("run %d op %d: pointer %d listed as %p, want %p", run, op, p, seen[p], b)
				}
			}
		}
	}
}

package info

import (
	"fmt"
	"testing"
)

// TestFactsLookupAcrossIndex adds facts past the count from which they are indexed: each is
// found by name, with the evidence it was added with, and all yields them in order.
func TestFactsLookupAcrossIndex(t *testing.T) {
	var fs facts
	name := func(i int) string { return fmt.Sprintf("env NCCL_VAR_%d", i) }
	for i := range 3 * factsIndexed {
		if fs.get(name(i)) != nil {
			t.Fatalf("fact %d found before it was added", i)
		}
		fs.add(name(i), Evidence{File: "job.log", Line: int64(i)})
		for j := 0; j <= i; j++ {
			if f := fs.get(name(j)); f == nil || f.ev.Line != int64(j) {
				t.Fatalf("after %d facts, fact %d reads %+v", i+1, j, f)
			}
		}
	}
	i := 0
	for n, f := range fs.all() {
		if n != name(i) || f.ev.Line != int64(i) {
			t.Fatalf("fact %d yielded as %q, line %d", i, n, f.ev.Line)
		}
		i++
	}
	if i != 3*factsIndexed {
		t.Fatalf("all yielded %d facts, want %d", i, 3*factsIndexed)
	}
}

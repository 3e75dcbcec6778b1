package diagnose

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestInfoAtIsIndex checks infoAt against the search it stands for, bytes.Index for
// ` NCCL INFO `, on lines built from the pieces that could fool it: the word without its
// space, twice, at either end, and after other N words.
func TestInfoAtIsIndex(t *testing.T) {
	pieces := []string{" NCCL INFO ", "NCCL INFO ", "NCCL INFO", " NCCL", "N", " ", "x", "NET/IB : Using ", "NNCCL INFO ", "  "}
	r := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		var b []byte
		for range r.IntN(6) {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		if got, want := infoAt(b), bytes.Index(b, []byte(" NCCL INFO ")); got != want {
			t.Fatalf("infoAt(%q) = %d, bytes.Index %d", b, got, want)
		}
	}
}

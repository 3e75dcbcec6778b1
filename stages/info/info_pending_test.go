package info

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPendingListLikeScan: pendingList takes a thread's lines out, and lists the rest, in the
// order a scan of one slice (what it replaced) gives, through pushes, takes and compactions.
func TestPendingListLikeScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 100 {
		var l pendingList
		var ref []commFact
		threads := 1 + r.IntN(20)
		th := func() threadKey { return threadKey{procID{"h", int64(r.IntN(threads))}, 7} }
		for op := range 400 {
			if r.IntN(3) > 0 {
				f := commFact{thread: th(), value: string(rune('a' + op%26)), ev: Evidence{Line: int64(op)}}
				l.push(f)
				ref = append(ref, f)
				continue
			}
			k := th()
			var got, want []commFact
			l.take(k, func(f *commFact) { got = append(got, *f) })
			kept := ref[:0]
			for _, f := range ref {
				if f.thread == k {
					want = append(want, f)
				} else {
					kept = append(kept, f)
				}
			}
			ref = kept
			if !slices.Equal(want, got) {
				t.Fatalf("round %d op %d: take(%v) (-want +got):\n%s", round, op, k, diff(want, got))
			}
		}
		var rest []commFact
		l.each(func(f *commFact) { rest = append(rest, *f) })
		if !slices.Equal(ref, rest) {
			t.Fatalf("round %d: each (-want +got):\n%s", round, diff(ref, rest))
		}
	}
}

func diff(want, got []commFact) string {
	return cmp.Diff(want, got, cmp.AllowUnexported(commFact{}, threadKey{}, procID{}))
}

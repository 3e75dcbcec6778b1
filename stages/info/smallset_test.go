package info

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSmallSetAsMap checks smallSet against a map through adds, lookups and deletes, on
// both sides of the size where it moves its members to a map.
func TestSmallSetAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, span := range []int{3, smallSetMax, smallSetMax + 1, 4 * smallSetMax} {
		var s smallSet[int]
		m := map[int]struct{}{}
		for i := range 2000 {
			v := r.IntN(span)
			switch r.IntN(8) {
			case 0:
				s.deleteFunc(func(x int) bool { return x == v })
				delete(m, v)
			default:
				s.add(v)
				m[v] = struct{}{}
			}
			_, want := m[v]
			if s.has(v) != want || s.len() != len(m) {
				t.Fatalf("span %d, step %d: has(%d) %v, len %d; want %v, %d", span, i, v, s.has(v), s.len(), want, len(m))
			}
			if got, want := slices.Sorted(s.all()), slices.Sorted(maps.Keys(m)); !slices.Equal(got, want) {
				t.Fatalf("span %d, step %d: members %v, want %v", span, i, got, want)
			}
		}
	}
}

package stages_test

import (
	"slices"
	"testing"

	"github.com/nccllog/nccllog/stages"
)

// item144 is the size of a rank event.
type item144 [144]byte

// pageBytes is the runtime's page size, by which it rounds a large allocation up.
const pageBytes = 8 << 10

// TestGrowAsAppend: grow gives a list the capacity slices.Grow would (to the runtime's
// rounding of a large allocation up to whole pages), so that a list past what Room doubles
// it to, grown a few items at a time, is copied a quarter more each time and not at every
// growth (the pending stretch of a log without step markers took 1.2 GB more over 1,024
// per-process files where grow gave exactly what Room asked for). Reserve(s, len(s)+n) on a
// full s is grow(s, n).
func TestGrowAsAppend(t *testing.T) {
	caps := []int{0, 1, 100, 255, 256, 1000, 7281, 10379}
	if !testing.Short() {
		// 400,001 items twice, 115 MB: the -short run's largest heap by far. 10,379 items
		// are past largeBytes already.
		caps = append(caps, 100000)
	}
	for _, c := range caps {
		for _, n := range []int{1, 64, c / 2, c, 3*c + 1} {
			if n <= 0 {
				continue
			}
			s := make([]item144, c)
			g, want := stages.Reserve(s, c+n), slices.Grow(s, n)
			if len(g) != c || cap(g) < c+n {
				t.Fatalf("cap %d + %d: len %d, cap %d", c, n, len(g), cap(g))
			}
			if d := cap(g) - cap(want); d*144 <= -pageBytes || d*144 >= pageBytes {
				t.Errorf("cap %d + %d: grow gives %d, slices.Grow %d", c, n, cap(g), cap(want))
			}
		}
	}
	// Items added one at a time: past keptBytes (7,281 items) Room asks for minRoom more,
	// so a grow that gave just that would copy the list every 64 items, hundreds of times
	// by 50,000 items; a quarter more a time copies it 16 times by 50,000 and 22 by
	// 200,000.
	items := 200000
	if testing.Short() {
		items = 50000 // -short: 7 MB rather than 29 MB (and 144 MB allocated over the copies, its page faults most of the package's -short time); go test ./... adds 200,000
	}
	var s []item144
	copies := 0
	for range items {
		if len(s) == cap(s) {
			copies++
		}
		s = append(stages.Room(s, 1), item144{})
	}
	if copies > 40 {
		t.Errorf("%d items added one at a time were copied %d times", items, copies)
	}
}

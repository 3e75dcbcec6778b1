package ranks

import (
	"slices"
	"testing"
)

// TestRefSeqLikeSlice: a sequence across several blocks reads, searches, walks and flattens
// as the one slice of the same calls would.
func TestRefSeqLikeSlice(t *testing.T) {
	for _, n := range []int{0, 1, minRef, refBlock - 1, refBlock, refBlock + 1, 3*refBlock + 7} {
		want := make([]refCall, n)
		for i := range want {
			want[i] = refCall{sig: uint32(i % 7), step: uint32(i / 100), op: uint64(2 * i)}
		}
		s := seqOf(want)
		if s.len() != int64(n) {
			t.Fatalf("%d calls: len %d", n, s.len())
		}
		for i := range want {
			if *s.at(int64(i)) != want[i] {
				t.Fatalf("%d calls: call %d is %+v, want %+v", n, i, *s.at(int64(i)), want[i])
			}
		}
		if got := s.flat(); !slices.Equal(got, want) && n > 0 {
			t.Errorf("%d calls: flat differs", n)
		}
		var walked []refCall
		s.each(func(i int64, c *refCall) {
			if int(i) != len(walked) {
				t.Fatalf("%d calls: each gave index %d at %d", n, i, len(walked))
			}
			walked = append(walked, *c)
		})
		if !slices.Equal(walked, want) && n > 0 {
			t.Errorf("%d calls: each walked other calls", n)
		}
		op := uint64(n) // the first call with op >= n is call n/2, rounded up
		if got := s.search(s.len(), func(c *refCall) bool { return c.op >= op }); got != int64((n+1)/2) {
			t.Errorf("%d calls: search found %d, want %d", n, got, (n+1)/2)
		}
		var tail refSeq
		tail.push(refCall{sig: 99})
		tail.from(&s, int64(n/2))
		if tail.len() != int64(1+n-n/2) || (n > 0 && *tail.at(tail.len() - 1) != want[n-1]) {
			t.Errorf("%d calls: from gave %d calls", n, tail.len())
		}
	}
}

// TestPrependMovesRanks: positions put in front of a long sequence keep its calls after them
// and move each rank's start along.
func TestPrependMovesRanks(t *testing.T) {
	g := &Group{}
	m := &Member{started: true, Start: 5}
	g.Members = []*Member{m}
	for i := range refBlock + 10 {
		g.ref.push(refCall{sig: 1, op: uint64(100 + i)})
	}
	g.prepend(3, 97)
	if g.ref.len() != refBlock+13 || g.ref.at(0).op != 97 || g.ref.at(3).op != 100 || g.ref.at(refBlock+12).op != uint64(100+refBlock+9) {
		t.Errorf("after prepend: %d calls, ops %d, %d, last %d", g.ref.len(), g.ref.at(0).op, g.ref.at(3).op, g.ref.at(g.ref.len()-1).op)
	}
	if m.Start != 8 {
		t.Errorf("rank starts at %d, want 8", m.Start)
	}
}

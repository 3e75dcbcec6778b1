package ranks

import (
	"encoding/json"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
	"testing"
)

// totalOf is every call's volume: the ranks kept in detail and the overflow.
func totalOf(r *Ranks) (comms int64, v Volume) {
	for _, g := range r.Groups() {
		comms++
		for _, m := range g.Members {
			v.merge(m.Volume())
		}
	}
	v.merge(r.Overflow().Volume())
	return comms + r.Overflow().Comms(), v
}

// TestCommsPastCap: past the cap, communicators are counted in the overflow (closed ones
// folded first), and the totals stay exact, also through a partial result and a merge.
func TestCommsPastCap(t *testing.T) {
	want := Volume{Calls: 50, Bytes: 50 * 4096}
	for _, cycle := range []bool{false, true} {
		r := commsOf(50, 10, cycle)
		comms, v := totalOf(r)
		if comms != 50 || v.Calls != want.Calls || v.Bytes != want.Bytes {
			t.Errorf("cycle %v: %d communicators, %+v, want 50 and %+v", cycle, comms, v, want)
		}
		if n := len(r.Groups()); n != 10 {
			t.Errorf("cycle %v: %d communicators in detail, want 10", cycle, n)
		}
		if closed := r.Overflow().Closed; cycle && closed != 40 || !cycle && closed != 0 {
			t.Errorf("cycle %v: %d folded once closed", cycle, closed)
		}
		for _, p := range r.procs {
			if len(p.members) > 10 {
				t.Errorf("cycle %v: a process keeps %d ranks", cycle, len(p.members))
			}
		}
		data, err := json.Marshal((&RanksPart{cfg: &stages.Config{}, Ranks: r}).Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		back := &RanksPart{cfg: &stages.Config{}}
		if err := stagetest.RestoreJSON(back, data); err != nil {
			t.Fatal(err)
		}
		if c, bv := totalOf(back.Ranks); c != comms || bv != v {
			t.Errorf("cycle %v: restored %d communicators, %+v; want %d, %+v", cycle, c, bv, comms, v)
		}
	}
	a, b := commsOf(15, 10, false), commsOf(15, 10, false) // the same 15 keys
	b.Merge(commsOf(30, 10, false))
	a.maxComms = 12
	a.Merge(b)
	if comms, v := totalOf(a); comms != 30 || v.Calls != 15+15+30 {
		t.Errorf("merged: %d communicators, %d calls; want 30, 60", comms, v.Calls)
	}
	truncated := 0
	for _, g := range a.Groups() {
		if g.Truncated() {
			truncated++
			if cov := a.Cover(g); !cov.Truncated {
				t.Errorf("%+v: truncated, its coverage does not say so", g.Key)
			}
		}
	}
	if truncated != 0 {
		// a kept the first 10 (and b the same 10): no communicator of a is in b's overflow only
		t.Errorf("%d truncated communicators, want 0", truncated)
	}
	c := commsOf(15, 10, false)
	d := commsOf(15, 5, false) // keeps 5 of the 10 c keeps
	c.Merge(d)
	truncated = 0
	for _, g := range c.Groups() {
		if g.Truncated() {
			truncated++
		}
	}
	if truncated != 5 {
		t.Errorf("%d truncated communicators, want the 5 kept in one input and not the other", truncated)
	}
}

// FuzzRanksCapped is FuzzRanks with a cap of one to three communicators kept in detail: hang
// and check never panic, and every call is counted once, in detail or in the overflow.
func FuzzRanksCapped(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 10, 1, 0, 1, 8, 1, 0, 1, 5, 2, 0, 1, 3, 3, 0, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		limit := 1 + int(data[0]%3)
		half := len(data) / 8 * 4
		a, b := NewRanks(&stages.Config{}), NewRanks(&stages.Config{})
		a.maxComms, b.maxComms = limit, limit
		feed(a, "a.log", data[:half])
		feed(b, "b.log", data[half:])
		a.Merge(b)
		var calls int64
		for i := 0; i+4 <= len(data); i += 4 {
			if data[i]%5 >= 3 {
				calls++
			}
		}
		if _, v := totalOf(a); v.Calls != calls {
			t.Fatalf("%d calls counted, %d fed", v.Calls, calls)
		}
		if n := len(a.Groups()); n > limit {
			t.Fatalf("%d communicators in detail, cap %d", n, limit)
		}
		a.Hang()
		a.Check()
	})
}

package ranks

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// heldLists makes lists of events of size each, as chunks hand them to Ranks.
func heldLists(t *testing.T, evs []RankEvent, size int) []*events {
	var out []*events
	for i := 0; i < len(evs); i += size {
		l := new(events)
		for j := i; j < min(i+size, len(evs)); j++ {
			if err := l.addRankEvent(&evs[j]); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, l)
	}
	return out
}

// checkDeferred folds the lines feed makes of data, in lists of size, into a Ranks that
// holds them while no call has come (at most limit) and into one that folds them as they
// come: the overflow note (told without a fold where it can be), whether any rank called,
// and the state are the same.
func checkDeferred(t *testing.T, data []byte, size, limit, comms int) {
	fed := fedEvents("a.log", data)
	held, now := NewRanks(&stages.Config{}), NewRanks(&stages.Config{})
	held.maxDeferred, held.maxComms, now.maxComms, held.defers = limit, comms, comms, true
	for _, l := range heldLists(t, fed, size) {
		held.foldHeld(l)
	}
	for _, l := range heldLists(t, fed, size) {
		now.foldHeld(l)
	}
	if a, b := held.Called(), now.Called(); a != b {
		t.Fatalf("called %v, folded as they came %v", a, b)
	}
	if a, b := held.OverflowNote(), now.OverflowNote(); a != b {
		t.Fatalf("overflow note %q, folded as they came %q", a, b)
	}
	snap := func(r *Ranks) string {
		data, err := json.Marshal((&RanksPart{cfg: r.cfg, Ranks: r}).Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if a, b := snap(held), snap(now); a != b {
		t.Fatalf("held then folded:\n%s\nfolded as they came:\n%s", a, b)
	}
}

// TestDeferred: a log of communicator lines only, held whole, past the cap of events held,
// and with a call after them.
func TestDeferred(t *testing.T) {
	var inits, withCall []byte
	for i := range 40 {
		inits = append(inits, byte(5*(i%3)), byte(i), 0, byte(i/4)) // Init, layout and Abort lines
	}
	withCall = append(append(withCall, inits...), 3, 0, 1, 0)
	withCall = append(withCall, inits[:16]...)
	for _, data := range [][]byte{inits, withCall} {
		for _, size := range []int{1, 3, 64} {
			checkDeferred(t, data, size, maxDeferred, MaxComms)
			checkDeferred(t, data, size, 7, MaxComms) // past the cap of held events
			checkDeferred(t, data, size, maxDeferred, 1)
		}
	}
}

// FuzzDeferred is TestDeferred's check on arbitrary lines, list sizes, caps of events held
// and of communicators kept in detail, and TestPacked's on arbitrary events.
func FuzzDeferred(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 5, 0, 0, 1, 10, 2, 0, 0, 1, 1, 0, 0, 2, 1, 0, 1}, uint8(2), uint8(40))
	f.Add([]byte{0, 1, 2, 3, 5, 0, 0, 1, 3, 2, 0, 0, 1, 1, 0, 0, 2, 1, 0, 1}, uint8(0), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, size, caps uint8) {
		if len(data) > 4*256 {
			data = data[:4*256]
		}
		checkDeferred(t, data, 1+int(size%8), int(caps/4), 1+int(caps%4))
		checkPacked(t, packedEvents(data), 1+int(size%8))
	})
}

// TestDeferredNoCallNoFold: a log without a call is not folded to answer Called and
// OverflowNote, which is all diagnose asks of it.
func TestDeferredNoCallNoFold(t *testing.T) {
	var data []byte
	for i := range 20 {
		data = append(data, 0, byte(i), 0, byte(i))
	}
	r := NewRanks(&stages.Config{})
	r.defers = true
	for _, l := range heldLists(t, fedEvents("a.log", data), 4) {
		r.foldHeld(l)
	}
	if r.Called() || r.OverflowNote() != "" {
		t.Fatalf("called %v, note %q", r.Called(), r.OverflowNote())
	}
	if !r.defers || r.deferred == nil || r.deferred.n != 20 || len(r.procs) != 0 {
		t.Fatalf("folded: %v, %d procs", !r.defers, len(r.procs))
	}
	if len(r.Groups()) == 0 || r.deferred != nil {
		t.Fatal("asked for its communicators, Ranks did not fold what it held")
	}
}

// TestDeferredOverflowEdge: Init lines of n communicators, each on two processes (the last
// with a commId or without), against caps either side of n: the note told without a fold is
// the note of the fold.
func TestDeferredOverflowEdge(t *testing.T) {
	for _, n := range []int{1, 2, 5, 9} {
		for _, zero := range []bool{false, true} {
			checkOverflowEdge(t, n, zero)
		}
	}
}

// checkOverflowEdge is TestDeferredOverflowEdge's check of n communicators, the last
// without a commId where zero.
func checkOverflowEdge(t *testing.T, n int, zero bool) {
	var evs []RankEvent
	for c := range n {
		for p := range int64(2) {
			ev := &parser.CommEvent{Event: "Init START", Comm: uint64(0x100 + c), CommID: uint64(c + 1), Rank: p, NRanks: 2, CudaDev: p}
			if zero && c == n-1 {
				ev.CommID = 0
			}
			evs = append(evs, RankEvent{File: "a.log", Line: int64(len(evs) + 1), Step: -1, Kind: parser.KindComm, Host: "h", Pid: p, Dev: -1, Label: -1, Comm: ev})
		}
	}
	for _, comms := range []int{n - 1, n, n + 1, 2 * n} {
		if comms < 1 {
			continue
		}
		held, now := NewRanks(&stages.Config{}), NewRanks(&stages.Config{})
		held.maxComms, now.maxComms, held.defers = comms, comms, true
		for _, l := range heldLists(t, evs, 3) {
			held.foldHeld(l)
		}
		for _, l := range heldLists(t, evs, 3) {
			now.foldHeld(l)
		}
		if a, b := held.OverflowNote(), now.OverflowNote(); a != b {
			t.Errorf("%d communicators (the last without commId: %v), cap %d: note %q, folded %q", n, zero, comms, a, b)
		}
	}
}

// TestDeferredTextCap: a log of distinct WARN lines without a call holds their texts up to
// maxDeferredText, then folds: what it holds is bounded by its strings too.
func TestDeferredTextCap(t *testing.T) {
	text := strings.Repeat("x", 110)
	var evs []RankEvent
	for i := range maxDeferredText/len(text) + 2*deferBlock {
		evs = append(evs, RankEvent{File: "a.log", Line: int64(i + 1), Step: -1, Kind: parser.KindWarn, Host: "h",
			Pid: int64(i % 7), Dev: -1, Label: -1, Text: text + strconv.Itoa(i)})
	}
	r := NewRanks(&stages.Config{})
	r.defers = true
	for _, l := range heldLists(t, evs, 1000) {
		r.foldHeld(l)
		if d := r.deferred; d != nil && d.text > maxDeferredText+1000*(len(text)+8) {
			t.Fatalf("%d bytes of text held", d.text)
		}
	}
	if r.defers {
		t.Fatalf("%d events of %d bytes held, not folded", r.deferred.n, r.deferred.text)
	}
}

// TestDefersWhereAskedFirst: only a ranks stage whose run asks first whether any rank called
// holds a log without a call unfolded, through an input's state merged into the run's;
// another folds the events as they come.
func TestDefersWhereAskedFirst(t *testing.T) {
	var data []byte
	for i := range 20 {
		data = append(data, 0, byte(i), 0, byte(i))
	}
	for _, asks := range []bool{false, true} {
		s := RanksStage{NoVolume: true, AsksCalledFirst: asks}
		total, in := s.New(&stages.Config{}).(*RanksPart), s.New(&stages.Config{}).(*RanksPart)
		for _, l := range heldLists(t, fedEvents("a.log", data), 4) {
			in.ranks().foldHeld(l)
		}
		total.Merge(in)
		r := total.Ranks
		if held := r.deferred != nil; held != asks || r.defers != asks || (len(r.procs) == 0) != asks {
			t.Fatalf("asks first %v: held %v, defers %v, %d procs", asks, held, r.defers, len(r.procs))
		}
		if r.Called() || len(r.Groups()) == 0 || r.deferred != nil {
			t.Fatalf("asks first %v: called %v, %d communicators", asks, r.Called(), len(r.Groups()))
		}
	}
}

// packedEvents makes events of every kind of data, their values small or past 32 bits
// (a byte's bits choose which), for checkPacked.
func packedEvents(data []byte) []RankEvent {
	var out []RankEvent
	for i := 0; i+2 <= len(data); i += 2 {
		k, wide := data[i], data[i+1]
		v := func(j int) int64 {
			x := int64(data[(i+j)%len(data)]) - 64
			if wide&(1<<(j%8)) != 0 {
				x = x<<40 ^ x<<17 ^ int64(j)<<56
			}
			return x
		}
		e := RankEvent{File: []string{"a.log", "b.log"}[k%2], Line: v(0), Step: v(1), Kind: parser.KindInfo,
			Host: "h" + strconv.Itoa(int(k%3)), Pid: v(2), Dev: v(3), Label: v(4),
			Time: At{Stamp: parser.Stamp{Nanos: v(5), Form: parser.StampForm(k % 3), Digits: k % 10, Zoned: k&8 != 0}}}
		switch k % 6 {
		case 0, 1:
			e.Kind = parser.KindComm
			e.Comm = &parser.CommEvent{Event: []string{"Init START", parser.EventLayout, "Abort COMPLETE"}[k%3],
				API: []string{"", "ncclCommInitRank", "ncclCommSplit"}[wide%3], Comm: uint64(v(6)), Rank: v(7),
				NRanks: v(8), CudaDev: v(9), NvmlDev: v(10), BusID: uint64(v(11)), CommID: uint64(v(12)),
				Parent: uint64(v(13)), Color: v(14), Key: v(15), Split: v(16), NNodes: v(17), LocalRks: v(18), LocalRk: v(19)}
		case 2:
			e.Kind, e.Text, e.Advice = parser.KindWarn, "warn "+strconv.Itoa(int(wide%4)), wide&1 != 0
		case 3:
			e.Kind, e.Watchdog = parser.KindWatchdog, &parser.Watchdog{Rank: v(6), PG: v(7)}
		case 4:
			e.Kind = parser.KindCollective
			e.Coll = parser.Collective{Op: "AllReduce", OpCount: uint64(v(6)), Count: v(7), Datatype: parser.Datatype(v(8)),
				RedOp: parser.RedOp(v(9)), Root: v(10), Comm: uint64(v(11)), NRanks: v(12), GlobalRank: v(13)}
		case 5:
			e.Kind = parser.KindFailure
		}
		out = append(out, e)
	}
	return out
}

// checkPacked holds evs, in lists of size, and unpacks them: each is the event it was. It
// returns how many buffers held them.
func checkPacked(t *testing.T, evs []RankEvent, size int) int {
	var want, got []RankEvent
	each := func(out *[]RankEvent) func(*events) {
		return func(l *events) {
			for i := range l.Items {
				e := l.rankEvent(i)
				if e.Comm != nil {
					c := *e.Comm // l.comm, which the next event's overwrites
					e.Comm = &c
				}
				*out = append(*out, e)
			}
		}
	}
	d := new(deferred)
	for _, l := range heldLists(t, evs, size) {
		each(&want)(l)
		d.hold(l, MaxComms)
	}
	if d.n != len(evs) {
		t.Fatalf("%d events held of %d", d.n, len(evs))
	}
	blocks := len(d.blocks)
	d.unpack(each(&got))
	if len(got) != len(want) {
		t.Fatalf("%d events unpacked of %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("event %d unpacked as\n%+v\n%+v\nheld", i, got[i], want[i])
		}
	}
	return blocks
}

// TestPacked: events of every kind, with values small and wide, in lists of a few sizes,
// across a buffer's end.
func TestPacked(t *testing.T) {
	data := make([]byte, 2*8000)
	for i := range data {
		data[i] = byte(i*7 + i/13)
	}
	for _, size := range []int{1, 5, 64, 8000} {
		if n := checkPacked(t, packedEvents(data), size); n < 2 {
			t.Fatalf("lists of %d: %d buffers, none filled", size, n)
		}
	}
}

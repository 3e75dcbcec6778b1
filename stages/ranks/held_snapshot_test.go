package ranks

import (
	"reflect"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// TestHeldCommEventsSnapshot: communicator, WARN and watchdog lines still waiting for their
// step are written to a partial each with its own details (rankEvent hands out one
// CommEvent that the next call overwrites), and read back the same.
func TestHeldCommEventsSnapshot(t *testing.T) {
	lines := []string{
		"h1:10:11 [0] NCCL INFO ncclCommInitRank comm 0x1000 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START",
		"h1:10:11 [0] NCCL WARN NET/IB : Got completion with error 12",
		"h1:10:11 [0] NCCL INFO ncclCommInitRank comm 0x1000 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init COMPLETE",
		"h2:20:21 [1] NCCL INFO ncclCommInitRank comm 0x2000 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2000 commId 0xabc - Init START",
	}
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	part := RanksStage{}.New(&stages.Config{}).(*RanksPart)
	for n, text := range lines {
		var pl parser.Line
		p.Parse([]byte(text), &pl)
		part.Add(&stages.Line{N: int64(n + 1), Text: []byte(text), P: &pl})
	}
	part.Anchor(stages.Origin{File: "f.log"})
	snap := part.Snapshot().(RanksSnapshot)
	if len(snap.Held) != len(lines) {
		t.Fatalf("%d held events, want %d", len(snap.Held), len(lines))
	}
	want := []struct {
		event string
		comm  uint64
		rank  int64
	}{{"Init START", 0x1000, 0}, {}, {"Init COMPLETE", 0x1000, 0}, {"Init START", 0x2000, 1}}
	for i, w := range want {
		e := snap.Held[i]
		if w.event == "" {
			if e.Comm != nil || e.Text == "" {
				t.Errorf("event %d: comm %v, text %q; want a WARN's text", i, e.Comm, e.Text)
			}
			continue
		}
		if e.Comm == nil || e.Comm.Event != w.event || e.Comm.Comm != w.comm || e.Comm.Rank != w.rank || e.Comm.CommID != 0xabc {
			t.Errorf("event %d: comm %+v, want %s of %#x rank %d", i, e.Comm, w.event, w.comm, w.rank)
		}
	}
}

// TestHeldCommEventFields: a held communicator line gives back every field the parser read,
// those kept in its event's call fields and those kept as int32s, and values past int32 (a
// garbled or crafted line's) too.
func TestHeldCommEventFields(t *testing.T) {
	comms := []parser.CommEvent{
		{Event: "Init START", API: "ncclCommSplit", Comm: 0xdeadbeef00001000, Rank: 7, NRanks: 16, CudaDev: 3, NvmlDev: 4,
			BusID: 0xffffffff00000101, CommID: 0x8000000000000abc, Parent: 0xfeedface00002000, Color: -5, Key: 9, Split: 2,
			NNodes: -1, LocalRks: -1, LocalRk: -1},
		{Event: "Layout", Comm: 1, Rank: 1 << 40, NRanks: -(1 << 40), CudaDev: 1 << 33, NvmlDev: -1, Color: -(1 << 35),
			Key: 1 << 31, Split: -1, NNodes: 2, LocalRks: 8, LocalRk: 1<<31 - 1},
		{Event: "Init COMPLETE", Comm: 2, CudaDev: -1 << 31, NvmlDev: -1, Split: -1, NNodes: -1, LocalRks: -1, LocalRk: -1},
	}
	var l events
	for i := range comms {
		l.addRankEvent(&RankEvent{File: "f.log", Line: int64(i + 1), Kind: parser.KindComm, Host: "h", Pid: 1, Comm: &comms[i]})
	}
	var o events // and merged after a list that holds one of its own
	first := parser.CommEvent{Event: "Layout", Comm: 3, CudaDev: 1 << 34, NvmlDev: 1 << 34, Color: 1, Key: 2}
	o.addRankEvent(&RankEvent{File: "g.log", Line: 1, Kind: parser.KindComm, Host: "h", Pid: 2, Comm: &first})
	o.merge(&l)
	for i, want := range append([]parser.CommEvent{first}, comms...) {
		if got := o.rankEvent(i).Comm; got == nil || *got != want {
			t.Errorf("event %d: %+v, want %+v", i, got, want)
		}
	}
}

// TestHeldCallFields: a held call gives back what the parser read, its datatype and
// reduction kept as int32s, or aside where they do not fit, and its wall time.
func TestHeldCallFields(t *testing.T) {
	at := parser.Stamp{Nanos: 1_700_000_000_123_456_789, Form: parser.StampISO, Digits: 6, Zoned: true}
	calls := []parser.Collective{
		{Op: "AllReduce", OpCount: 7, Count: 1 << 40, Datatype: parser.Bf16, RedOp: 4, Root: -1, Comm: 0xabc, NRanks: 8, GlobalRank: 3},
		{Op: "Broadcast", OpCount: 1 << 63, Count: 9, Datatype: 1 << 40, RedOp: -1 << 33, Root: 2, Comm: 0xdef, NRanks: 2, GlobalRank: -1},
		{Op: "AllGather", Datatype: -1 << 31, RedOp: 1<<31 - 1},
		{Op: "ReduceScatter", Datatype: 7, RedOp: 1 << 31},
	}
	var l, o events
	for i := range calls {
		l.addRankEvent(&RankEvent{File: "f.log", Line: int64(i + 1), Kind: parser.KindCollective, Host: "h", Pid: 1,
			Coll: calls[i], Time: At{Stamp: at}})
	}
	first := parser.Collective{Op: "Send", Datatype: 1 << 50, RedOp: 1 << 50}
	o.addRankEvent(&RankEvent{File: "g.log", Line: 1, Kind: parser.KindCollective, Host: "h", Pid: 2, Coll: first})
	o.merge(&l)
	for i, want := range append([]parser.Collective{first}, calls...) {
		e := o.rankEvent(i)
		if e.Coll != want || e.Comm != nil || e.Text != "" {
			t.Errorf("event %d: %+v, comm %v, text %q; want %+v", i, e.Coll, e.Comm, e.Text, want)
		}
		if wantAt := (i > 0); (e.Time.Stamp == at) != wantAt {
			t.Errorf("event %d: time %+v", i, e.Time.Stamp)
		}
	}
}

// TestMemberStateRoundTrip: a rank read back from a partial result writes what it was read
// from, its fields kept aside (calls, WARN) or as enums (RankFrom, End) or not: those a
// rank without calls has, and values the enums do not name.
func TestMemberStateRoundTrip(t *testing.T) {
	bare := MemberState{Host: "h", Pid: 1, File: "f", Rank: -1, CudaDev: -1, LaunchRank: -1, FirstStep: -1, LastStep: -1, FirstDiv: -1}
	full := MemberState{Host: "h", Pid: 2, File: "f", Rank: 3, RankFrom: "globalrank", CudaDev: 1, LaunchRank: 3, Calls: 5,
		Start: 1, FirstOp: 9, FirstStep: 2, LastStep: 4, Last: Sig{Op: "AllReduce", Count: 8, Datatype: 7},
		LastLine: 40, FirstDiv: 2, DivSig: Sig{Op: "Broadcast", Root: 1}, End: "Abort", Warn: "w", WarnLine: 41,
		WarnAdvice: true, ProcLast: 40, Clock: &Clock{Gaps: 3}}
	odd := bare
	odd.RankFrom, odd.End = "layout", "Finalize"
	oddWarn := full
	oddWarn.RankFrom, oddWarn.End, oddWarn.Warn, oddWarn.WarnLine, oddWarn.WarnAdvice, oddWarn.ProcLast = "x", "y", "", 0, false, 0
	zeroSteps := bare
	zeroSteps.FirstStep, zeroSteps.LastStep, zeroSteps.FirstDiv = 0, 0, 0 // as an older partial result leaves them
	for i, s := range []MemberState{bare, full, odd, oddWarn, zeroSteps} {
		m := s.member()
		if got := m.state(); !reflect.DeepEqual(got, s) {
			t.Errorf("state %d: read back as\n%+v, want\n%+v", i, got, s)
		}
		// Groups gives every rank its process's WARN anew: a rank without one keeps its
		// RankFrom and End.
		m.setWarn("", 0, false, 0)
		if m.RankFrom() != s.RankFrom || m.End() != s.End || m.Warn() != "" {
			t.Errorf("state %d: after setWarn, RankFrom %q End %q Warn %q", i, m.RankFrom(), m.End(), m.Warn())
		}
	}
	if m := bare.member(); m.calls != nil || m.warn != nil {
		t.Errorf("a rank without calls or WARN keeps calls %v, warn %v", m.calls, m.warn)
	}
}

package ranks

import (
	"runtime"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// commsOf folds n communicators of one rank each (an Init line and a call), over 64
// processes, into a Ranks that keeps at most maxComms in detail; cycle: one process's one
// comm pointer, destroyed after its call and handed out again.
func commsOf(n, maxComms int, cycle bool) *Ranks {
	r := NewRanks(&stages.Config{})
	r.maxComms = maxComms
	for i := range int64(n) {
		pid, ptr := 100+i%64, 0x55d000000000+uint64(i)*0x40
		if cycle {
			pid, ptr = 100, 0x55d0f1170760
		}
		ev := parser.CommEvent{Event: "Init COMPLETE", Comm: ptr, Rank: 0, NRanks: 1, CudaDev: 0,
			NvmlDev: 0, CommID: uint64(i+1) * 0x9e3779b97f4a7c15, Split: -1, NNodes: -1, LocalRks: -1, LocalRk: -1}
		e := RankEvent{Line: 3 * i, Step: -1, Kind: parser.KindComm, Host: "node", Pid: pid, Dev: 0, Label: -1, Comm: &ev}
		r.Add("job.log", &e)
		c := RankEvent{Line: 3*i + 1, Step: -1, Kind: parser.KindCollective, Host: "node", Pid: pid, Dev: 0, Label: -1,
			Coll: parser.Collective{Op: "AllReduce", Count: 1024, Datatype: 7, Comm: ptr, NRanks: 1, Task: -1, GlobalRank: -1}}
		r.Add("job.log", &c)
		if cycle {
			end := ev
			end.Event = "Destroy COMPLETE"
			d := RankEvent{Line: 3*i + 2, Step: -1, Kind: parser.KindComm, Host: "node", Pid: pid, Dev: 0, Label: -1, Comm: &end}
			r.Add("job.log", &d)
		}
	}
	return r
}

// TestCommsPastCapMemory: past the cap, a communicator costs a few dozen bytes (its key and
// its pointer's binding), not its detail; and one comm pointer handed out again and again
// costs nothing per cycle beyond its key. 4,000 and 24,000 communicators; with -short, 2,000
// and 8,000: 6,000 past the cap that kept their detail (hundreds of bytes each) would still
// be megabytes over the 96-byte bound.
func TestCommsPastCapMemory(t *testing.T) {
	const maxComms = 1000
	nSmall, nLarge := 4*maxComms, 24*maxComms
	if testing.Short() {
		nSmall, nLarge = 2*maxComms, 8*maxComms
	}
	for _, cycle := range []bool{false, true} {
		small := stagetest.Retained(func() any { return commsOf(nSmall, maxComms, cycle) })
		large := stagetest.Retained(func() any { return commsOf(nLarge, maxComms, cycle) })
		per := (large - small) / int64(nLarge-nSmall)
		t.Logf("cycle %v: %d bytes for %d communicators, %d for %d: %d a communicator past the cap",
			cycle, small, nSmall, large, nLarge, per)
		if per > 96 {
			t.Errorf("cycle %v: a communicator past the cap keeps %d bytes, want at most 96", cycle, per)
		}
	}
}

// TestMergeIntoEmptyKeepsTables: the first input's Ranks merged into the run's empty one
// hands over its signature table rather than copying it (a log of a million call shapes held
// two tables of a million).
func TestMergeIntoEmptyKeepsTables(t *testing.T) {
	o := NewRanks(&stages.Config{})
	for i := range int64(50_000) {
		e := bigStepCall(i, i/100, 0, uint64(i))
		e.Coll.Count = 1 + i
		o.Add(e.File, &e)
	}
	r := NewRanks(&stages.Config{})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r.Merge(o)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("merging 50,000 call shapes into an empty Ranks allocated %d bytes, want under 1 MiB", n)
	}
	gs := r.Groups()
	if len(gs) != 1 || gs[0].MaxCalls() != 50_000 || gs[0].StepOf(49_999) != 499 {
		t.Fatalf("merged: %d communicators", len(gs))
	}
	if s, _, ok := r.RefCall(gs[0], 49_999); !ok || s.Count != 50_000 {
		t.Errorf("call 49,999 is %+v, want count 50,000", s)
	}
}

// TestSigTableMemory: a call signature costs its 48 bytes in the table and a few more to find
// it, not a map entry besides (ranks over a million distinct call shapes).
func TestSigTableMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the memory bound of 200,000 signatures runs without -short")
	}
	const n = 200_000
	build := func() any {
		st := newSigTable()
		for i := range int64(n) {
			st.id(Sig{Op: stagetest.ShapeOps[i%4], Count: 1 + i/40, Datatype: stagetest.ShapeTypes[i/4%10], Root: -1})
		}
		return st
	}
	per := stagetest.Retained(build) / n
	t.Logf("%d bytes a signature", per)
	if per > 80 {
		t.Errorf("a signature costs %d bytes, want at most 80", per)
	}
}

// initOnly folds the Init lines of n ranks of two communicators (a world of n and, for every
// 8 ranks, a node's split), one process each, none of which issues a call: a log of a large
// job's communicator set-up.
func initOnly(n int) *Ranks {
	r := NewRanks(&stages.Config{})
	for i := range int64(n) {
		host, pid := "node"+itoa(i/8), 1000+i
		for c, comm := range []struct {
			id      uint64
			nranks  int64
			rank    int64
			pointer uint64
		}{{0xabc, int64(n), i, 0x55d000000000 + uint64(i)*0x40}, {0xdef0 + uint64(i/8), 8, i % 8, 0x55d100000000 + uint64(i)*0x40}} {
			ev := parser.CommEvent{Event: "Init COMPLETE", Comm: comm.pointer, Rank: comm.rank, NRanks: comm.nranks,
				CudaDev: i % 8, NvmlDev: i % 8, CommID: comm.id, Split: -1, NNodes: -1, LocalRks: -1, LocalRk: -1}
			e := RankEvent{Line: 2*i + int64(c), Step: -1, Kind: parser.KindComm, Host: host, Pid: pid, Dev: i % 8, Label: -1, Comm: &ev}
			r.Add("init.log", &e)
		}
	}
	return r
}

// TestInitOnlyRankMemory: a rank that issues no call (most of an init-heavy log's) costs its
// Member and its share of its process, without room for the calls it never issued or a map
// of its process's comm pointers: 4,096 processes of two communicators each against 1,024
// (with -short, 2,048 against 512). With a Member of 400 bytes and a map of comm pointers in
// every process, a rank kept 724 bytes; with a Member of 344 bytes and a process of 208, 580;
// now (Member 128, process 160) 340.
func TestInitOnlyRankMemory(t *testing.T) {
	small, large := 1024, 4096
	if testing.Short() {
		small, large = 512, 2048
	}
	a := stagetest.Retained(func() any { return initOnly(small) })
	b := stagetest.Retained(func() any { return initOnly(large) })
	per := (b - a) / int64(2*(large-small))
	t.Logf("%d bytes for %d ranks, %d for %d: %d a rank", a, 2*small, b, 2*large, per)
	if per > 400 {
		t.Errorf("a rank without calls keeps %d bytes, want at most 400", per)
	}
}

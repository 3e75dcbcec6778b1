package ranks

import (
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

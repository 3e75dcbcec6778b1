package ranks

import (
	"testing"

	"github.com/nccllog/nccllog/parser"
)

// TestCalledOnlyWithACall: a log of communicator set-up (no call) has no verdict, which is
// what Called lets diagnose skip grouping its ranks for; one call on the world communicator
// by two ranks makes Called true, and the others are behind them.
func TestCalledOnlyWithACall(t *testing.T) {
	r := initOnly(16)
	if r.Called() {
		t.Fatal("Called is true for communicator set-up alone")
	}
	if checks, hangs := r.Verdicts(); len(checks) > 0 || waitedOn(hangs) {
		t.Fatalf("a log without calls has verdicts: %d checks, hangs %+v", len(checks), hangs)
	}
	for i := range int64(2) {
		c := RankEvent{Line: 100 + i, Step: -1, Kind: parser.KindCollective, Host: "node0", Pid: 1000 + i, Dev: i, Label: -1,
			Coll: parser.Collective{Op: "AllReduce", Count: 1024, Datatype: 7, Comm: 0x55d000000000 + uint64(i)*0x40,
				NRanks: 16, Task: -1, GlobalRank: -1}}
		r.Add("init.log", &c)
	}
	if !r.Called() {
		t.Fatal("Called is false after a call")
	}
	if _, hangs := r.Verdicts(); !waitedOn(hangs) {
		t.Fatalf("14 ranks behind the call of 2: no communicator waited on (%d findings)", len(hangs))
	}
}

// waitedOn reports whether a finding's communicator waited on a rank.
func waitedOn(hangs []HangFinding) bool {
	for _, h := range hangs {
		if h.WaitedOn {
			return true
		}
	}
	return false
}

package parser

import "testing"

// cutWatchdogLines are watchdog timeout lines a terminal cut inside the WorkNCCL tuple.
var cutWatchdogLines = []string{
	"[rank2]:[E424 01:11:21.160832730 ProcessGroupNCCL.cpp:629] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpTy",
	"[Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, ",
}

// TestWatchdogCutTuple: a timeout line that ends inside its tuple is still the rank's
// timeout at its SeqNum, the op unknown; text after a cut-off word is no such line.
func TestWatchdogCutTuple(t *testing.T) {
	p, _ := NewParser()
	for i, line := range cutWatchdogLines {
		l := p.Grammar().Parse([]byte(line))
		if l.Kind != KindWatchdog || l.Watchdog.Event != WatchdogTimeout || l.Watchdog.Seq != 4 || l.Watchdog.OpType != "" || l.Watchdog.Rank != []int64{2, 5}[i] {
			t.Errorf("%q: %v %+v, want rank's timeout at seq 4, op unknown", line, l.Kind, l.Watchdog)
		}
		checkAgreement(t, p, []byte(line))
	}
	for _, line := range []string{
		"[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpTy then more text",
		"[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=BROADCAST NumelIn",
	} {
		if l := p.Grammar().Parse([]byte(line)); l.Kind == KindWatchdog {
			t.Errorf("%q reads as a watchdog line %+v, want other", line, l.Watchdog)
		}
		checkAgreement(t, p, []byte(line))
	}
}

// TestWatchdogCutAfterOp: a line cut after its op keeps the op.
func TestWatchdogCutAfterOp(t *testing.T) {
	p, _ := NewParser()
	for _, line := range []string{
		"` ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, Numel",
		"[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, NumelOut=112, Timeout(m",
	} {
		l := p.Grammar().Parse([]byte(line))
		if l.Kind != KindWatchdog || l.Watchdog.Seq != 4 || l.Watchdog.OpType != "BROADCAST" || l.Watchdog.Rank != 1 || l.Watchdog.NumelIn != 112 {
			t.Errorf("%q: %v %+v, want rank 1's timeout at seq 4 in BROADCAST", line, l.Kind, l.Watchdog)
		}
		checkAgreement(t, p, []byte(line))
	}
}

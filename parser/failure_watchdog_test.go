package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWhatWatchdogTimeout reads the watchdog timeout a terminate's what() and an exception
// carry, as a watchdog line's fields (built from the watchdog's own timeout message, ref
// framework-lines "PyTorch"): diagnose tells a watchdog timeout from a crash by them.
func TestWhatWatchdogTimeout(t *testing.T) {
	const timeout = "[Rank 6] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=64, NumelOut=64, Timeout(ms)=300000) ran for 300105 milliseconds before timing out."
	want := noWatchdog
	want.Event, want.Rank, want.Seq, want.OpType = WatchdogTimeout, 6, 812, "ALLREDUCE"
	want.NumelIn, want.NumelOut, want.TimeoutMs, want.RanForMs = 64, 64, 300000, 300105
	withPG := want
	withPG.PG = 2
	noTag := want
	noTag.Rank = -1
	// Where the timeout's tag or head comes first in the message, the watchdog grammar reads
	// the line as a watchdog line; the process group's head before it hid it from that grammar.
	cases := []struct {
		line string
		kind Kind
		want Watchdog
	}{
		{"  what():  [PG 2 Rank 6] Process group watchdog thread terminated with exception: " + timeout, KindFailure, withPG},
		{"torch.distributed.DistBackendError: [PG 2 Rank 6] Process group watchdog thread terminated with exception: " + timeout, KindFailure, withPG},
		{"[rank6]:  what():  " + timeout, KindWatchdog, want},
		{"  what():  Process group watchdog thread terminated with exception: " + timeout[len("[Rank 6] "):], KindWatchdog, noTag},
	}
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		var l Line
		p.Parse([]byte(c.line), &l)
		w := l.Watchdog
		if l.Kind == KindFailure {
			w = l.Fail.Watchdog
		}
		if l.Kind != c.kind || w == nil {
			t.Errorf("%q: kind %v, want %v with a watchdog timeout", c.line, l.Kind, c.kind)
			continue
		}
		if diff := cmp.Diff(c.want, *w); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.line, diff)
		}
	}
	var l Line
	p.Parse([]byte("  what():  NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error"), &l)
	if l.Fail == nil || l.Fail.Watchdog != nil {
		t.Errorf("a what() without a watchdog timeout: %+v", l.Fail)
	}
}

// TestRootFieldTime reads the time of torchrun's `time :` field as the line's time.
func TestRootFieldTime(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	var l Line
	p.Parse([]byte("  time      : 2026-03-01_12:00:33"), &l)
	want := Stamp{Nanos: 1772366433 * secNanos, Form: StampTorchrun}
	if l.Kind != KindFailure || l.Time != want {
		t.Errorf("kind %v time %+v, want failure at %+v", l.Kind, l.Time, want)
	}
	for _, bad := range []string{"  time      : 2026-02-30_12:00:33", "  time      : 2026-03-01_25:00:33", "  time      : 2026-03-01T12:00:33x"} {
		p.Parse([]byte(bad), &l)
		if !l.Time.IsZero() && l.Time.Form == StampTorchrun {
			t.Errorf("%q: read a time %+v", bad, l.Time)
		}
	}
}

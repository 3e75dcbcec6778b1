package strag_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// crafted writes a log of 4 ranks of one host, each with its Init COMPLETE line and 20
// AllReduce calls timed by NCCL to the microsecond, rank 3's lateMs later than the others';
// reuse adds a second Init COMPLETE for rank 3's comm pointer naming another commId.
func crafted(t *testing.T, lateMs int, reuse bool) string {
	t.Helper()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	stamp := func(d time.Duration) string { return "[" + t0.Add(d).Format("2006-01-02 15:04:05.000000") + "] " }
	var b strings.Builder
	for r := range 4 {
		fmt.Fprintf(&b, "%snode-a:%d:%d [%d] NCCL INFO ncclCommInitRank comm 0x5500%d rank %d nranks 4 cudaDev %d nvmlDev %d busId 1000 commId 0xabc - Init COMPLETE\n",
			stamp(time.Duration(r)*time.Millisecond), 100+r, 100+r, r, r, r, r, r)
	}
	if reuse {
		fmt.Fprintf(&b, "%snode-a:103:103 [3] NCCL INFO ncclCommInitRank comm 0x55003 rank 3 nranks 4 cudaDev 3 nvmlDev 3 busId 1000 commId 0xdef - Init COMPLETE\n", stamp(5*time.Millisecond))
	}
	for op := range 20 {
		for r := range 4 {
			d := time.Second + time.Duration(op)*100*time.Millisecond + time.Duration(r)*100*time.Microsecond
			if r == 3 {
				d += time.Duration(lateMs) * time.Millisecond
			}
			fmt.Fprintf(&b, "%snode-a:%d:%d [%d] NCCL INFO AllReduce: opCount %x sendbuff 0x7f0000 recvbuff 0x7f0000 count 1024 datatype 7 op 0 root 0 comm 0x5500%d [nranks=4] stream 0x5600%d\n",
				stamp(d), 100+r, 100+r, r, op, r, r)
		}
	}
	p := filepath.Join(t.TempDir(), "crafted.log")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCrafted: a late rank of a log without progress lines is chronic over its one step; a
// rank 5 ms late is below the threshold; a comm pointer that two init lines give two
// commIds is not compared (its calls cannot be placed), and the three others alone show
// nobody late.
func TestCrafted(t *testing.T) {
	t.Parallel()
	rep := report(t, 0, crafted(t, 50, false))
	if len(rep.Stragglers) != 1 || rep.Stragglers[0].Rank != 3 || rep.Stragglers[0].Pid != 103 || rep.Stragglers[0].Kind.String() != "chronic" {
		t.Fatalf("late rank 3: %+v", rep)
	}
	if rep := report(t, 0, crafted(t, 5, false)); len(rep.Stragglers) != 0 {
		t.Fatalf("5 ms: %+v", rep.Stragglers)
	}
	if rep := report(t, 0, crafted(t, 50, true)); len(rep.Stragglers) != 0 || rep.Compared != 20 {
		t.Fatalf("reused pointer: %+v", rep)
	}
}

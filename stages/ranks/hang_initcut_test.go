package ranks_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startLog is the start of a 16-rank job's log on one node, cut at both ends: ranks 0, 2, 4
// and 6 print Init COMPLETE, then rank 6 and a process whose Init line came before the
// piece (callOnly) issue the first AllReduce. With callOnly false, that process prints
// its Init line too.
func startLog(t *testing.T, callOnly bool) string {
	t.Helper()
	var b strings.Builder
	initLine := func(r int) {
		fmt.Fprintf(&b, "node-a:%d:%d [%d] NCCL INFO ncclCommInitRank comm 0x%x rank %d nranks 16 cudaDev %d nvmlDev %d busId 18000 commId 0x221dee7fa4558566 - Init COMPLETE\n",
			100+r, 100+r, r, 0x1000+r, r, r, r)
	}
	call := func(r int) {
		fmt.Fprintf(&b, "node-a:%d:%d [%d] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f0000000400 recvbuff 0x7f0000000400 count 1 datatype 7 op 0 root 0 comm 0x%x [nranks=16] stream 0x5600000000\n",
			100+r, 100+r, r, 0x1000+r)
	}
	for _, r := range []int{4, 0, 2, 6} {
		initLine(r)
	}
	if !callOnly {
		initLine(5)
	}
	call(6)
	call(5)
	path := filepath.Join(t.TempDir(), "nccl.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHangAbsentInitCut: where a rank that issued calls has no Init line, the piece starts
// after the job's inits, and the ranks without lines may be those whose Init lines came
// before it too: they are no suspects (the ranks behind at call 0 are: the shape of a hang).
// Where every rank with lines has its Init line, the ranks without any are still suspects.
func TestHangAbsentInitCut(t *testing.T) {
	for _, c := range []struct {
		name     string
		callOnly bool
		absent   bool
	}{{"init-cut", true, false}, {"inits-whole", false, true}} {
		t.Run(c.name, func(t *testing.T) {
			h := analyze(t, startLog(t, c.callOnly)).ranks.HangReport()
			absent := false
			for _, cm := range h.Comms {
				for _, s := range cm.Suspects {
					absent = absent || s.Absent
				}
			}
			if absent != c.absent {
				t.Errorf("ranks without lines suspects: %v, want %v: %+v", absent, c.absent, h.Comms)
			}
		})
	}
}

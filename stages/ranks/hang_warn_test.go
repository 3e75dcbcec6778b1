package ranks_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// warnLog is a two-rank communicator, one process each, that made no call: both print Init
// COMPLETE, then rank 0's process prints the WARNs given, as a log cut right after them.
func warnLog(t *testing.T, warns ...string) string {
	t.Helper()
	var b strings.Builder
	for r := range 2 {
		fmt.Fprintf(&b, "node-a:%d:%d [%d] NCCL INFO ncclCommInitRank comm 0x%x rank %d nranks 2 cudaDev %d nvmlDev %d busId 18000 commId 0x5a5a5a5a5a5a5a5a - Init COMPLETE\n",
			100+r, 100+r, r, 0x1000+r, r, r, r)
	}
	for _, w := range warns {
		fmt.Fprintf(&b, "\n[2025-11-12 11:11:57] node-a:100:100 [0] %s\n", w)
	}
	path := filepath.Join(t.TempDir(), "nccl.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const (
	numaWarn = `init.cc:140 NCCL WARN NUMA auto balancing enabled which can lead to variability in the RCCL performance! Disable by "sudo sysctl kernel.numa_balancing=0"`
	ibWarn   = `transport/net_ib.cc:2453 NCCL WARN NET/IB: Got completion from peer 10.99.91.63<36473> with status=4 opcode=0 len=0 vendor err 81 (Send) localGid ::ffff:10.99.91.59 remoteGids::ffff:10.99.91.63 hca mlx5_0`
	portWarn = `transport/net_ib.cc:1287 NCCL WARN NET/IB : Got async event : port error`
	tunerMsg = `NCCL WARN Could not find tuner plugin libnccl-tuner.so`
)

// TestEndsInWarnFaultsOnly: a log that ends in a WARN is evidence of a hang only where the
// WARN names a fault (NET/IB's completion error); a notice healthy jobs print too (RCCL's
// NUMA balancing, an IB port event, a plugin not found) at the end of a cut is none. An
// error WARN stays the process's last word over a notice printed after it.
func TestEndsInWarnFaultsOnly(t *testing.T) {
	for _, c := range []struct {
		name  string
		warns []string
		want  bool
	}{
		{"numa", []string{numaWarn}, false},
		{"port-event", []string{portWarn}, false},
		{"tuner", []string{tunerMsg}, false},
		{"ib-error", []string{ibWarn}, true},
		{"ib-error-then-numa", []string{ibWarn, numaWarn}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := analyze(t, warnLog(t, c.warns...)).ranks.HangReport()
			if h.Found() != c.want {
				t.Fatalf("found %v, want %v: %+v", h.Found(), c.want, h.Comms)
			}
			if !c.want {
				return
			}
			s := h.Comms[0].Suspects
			if len(s) != 1 || s[0].Rank == nil || *s[0].Rank != 0 || !strings.Contains(strings.Join(s[0].Evidence, " "), "its log ends in a WARN") {
				t.Errorf("suspects %+v, want rank 0 for its log ending in a WARN", s)
			}
		})
	}
}

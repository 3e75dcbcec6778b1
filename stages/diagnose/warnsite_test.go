package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestWarnFloodKeepsChainWarn: a process's flood of one notice WARN (RCCL's `Could not read
// node # N` on a VM that hides its topology, on the same threads) leaves room under the caps
// for the WARN of another site that starts the error's chain, which names the finding.
func TestWarnFloodKeepsChainWarn(t *testing.T) {
	var b strings.Builder
	for i := range 80 {
		fmt.Fprintf(&b, "> node-0:188802:%d [%d] /src/rccl/alt_rsmi.cc:653 NCCL WARN Could not read node # %d\n", 188813+i%4, i%4, i)
	}
	b.WriteString("> node-0:188802:188815 [2] /src/rccl/build/hipify/src/graph/paths.cc:82 NCCL WARN Failed to find reverse path from remNode 0/200000 nlinks 3 to node 0/700000\n" +
		"> node-0:188802:188815 [2] NCCL INFO /src/rccl/build/hipify/src/graph/paths.cc:608 -> 3\n" +
		"> node-0:188802:188815 [2] NCCL INFO /src/rccl/build/hipify/src/init.cc:1248 -> 3\n" +
		"> node-0:188802:188815 [2] NCCL INFO /src/rccl/build/hipify/src/group.cc:68 -> 3 [Async thread]\n")
	r := diagnoseBytes(t, "job.log", []byte(b.String()), 0)
	if len(r.Findings) == 0 {
		t.Fatalf("no finding:\n%s", js(r))
	}
	if f := r.Findings[0]; !strings.Contains(f.Summary, "Failed to find reverse path") {
		t.Errorf("first finding: %s; want the reverse path WARN that starts the chain", f.Summary)
	}
}

// TestRingCheckWarn: graph/rings.cc's WARN on a ring that does not close (ranks whose
// topology or NCCL_HOSTID disagree) is an internal error of its process even where the
// paste shows no chain after it.
func TestRingCheckWarn(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[3]
	w := warnAt(p, 7300, "graph/rings.cc:38", "Error : ring 0 does not loop back to start (14 != 0)")
	r := diagnoseBytes(t, "job.log", append(data, w...), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindInternalError ||
		!slices.Equal(r.Findings[0].Processes, []string{p.name()}) {
		t.Errorf("want %s's internal error first:\n%s", p.name(), js(r))
	}
}

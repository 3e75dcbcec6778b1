package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// closedBy is the proxy service thread's INFO on local rank l's connection, as process pid
// of host (on device pid%8) prints it.
func closedBy(host string, pid, l int) string {
	return fmt.Sprintf("%s:%d:%d [%d] NCCL INFO [Service thread] Connection closed by localRank %d\n", host, pid, pid+900, pid%8, l)
}

// TestLocalGone: where every process of a host that logged a closed local connection names
// the same local rank, and three or more did, that rank went away first (a connection-closed
// on the host, naming none of the witnesses as its process). Fewer witnesses, several local
// ranks named (a teardown by abort), or lines of a job that proved another fault: no such
// finding.
func TestLocalGone(t *testing.T) {
	var gone strings.Builder
	for pid := 338; pid <= 344; pid++ {
		gone.WriteString(closedBy("A100-GPU-50", pid, 7))
	}
	r := diagnoseBytes(t, "job.log", []byte(gone.String()+gone.String()), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindConnectionClosed {
		t.Fatalf("want a connection-closed first:\n%s", js(r))
	}
	f := r.Findings[0]
	if !slices.Equal(f.Hosts, []string{"A100-GPU-50"}) || len(f.Processes) != 0 || len(f.GPUs) != 0 ||
		!strings.HasPrefix(f.Summary, "Local rank 7 on A100-GPU-50 went away first: 7 other processes") {
		t.Errorf("finding %+v", f)
	}
	for _, c := range []struct{ name, log string }{
		{"two witnesses", closedBy("h", 10, 3) + closedBy("h", 11, 3) + closedBy("h", 10, 3)},
		{"teardown by abort", closedBy("h", 10, 3) + closedBy("h", 11, 3) + closedBy("h", 12, 3) + closedBy("h", 13, 0) + closedBy("h", 10, 1)},
		{"two hosts", closedBy("h", 10, 3) + closedBy("h", 11, 3) + closedBy("g", 12, 3)},
		{"no pid", "h [1] NCCL INFO [Service thread] Connection closed by localRank 3\n" + closedBy("h", 11, 3) + closedBy("h", 12, 3) + closedBy("h", 13, 3)},
	} {
		if r := diagnoseBytes(t, "job.log", []byte(c.log), 0); r.Status == diagnose.StatusFault {
			t.Errorf("%s: status fault:\n%s", c.name, js(r))
		}
	}
	// In a healthy job's log they change nothing either.
	quietIn(t, closedBy("node1", 100, 2)+closedBy("node1", 101, 2))
}

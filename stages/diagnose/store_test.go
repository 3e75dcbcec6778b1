package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// storeWait is rank r's failed wait for the unique id of its group's rank 0 (PyTorch 2.x).
func storeWait(r int, why string) string {
	return fmt.Sprintf("[rank%d]: torch.distributed.DistBackendError: [%d] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: %s\n", r, r, why)
}

// TestStoreWait: ranks that could not get a communicator's unique id through the c10d store
// point at the rank that was to make it: alone, it went away first (on the process the log
// places it at); where that rank's own error is in the log, the waits follow it.
func TestStoreWait(t *testing.T) {
	data, ps := warnJob(t)
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), storeWait(3, "Connection reset by peer")+storeWait(5, "Connection reset by peer")...), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("want a fault:\n%s", js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindConnectionClosed || !strings.HasPrefix(f.Summary, "rank 0 ("+ps[0].name()+") went away first") ||
		!slices.Contains(f.Hosts, ps[0].host) || !strings.Contains(f.Summary, "2 processes") {
		t.Errorf("alone: first %s %v: %s", f.Kind, f.Hosts, f.Summary)
	}
	oom := "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
	r = diagnoseBytes(t, "job.log", append(slices.Clone(data), oom+storeWait(3, "Socket Timeout")...), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) < 2 || r.Findings[0].Kind != diagnose.KindOOM ||
		r.Findings[1].Follows == nil || !strings.Contains(r.Findings[1].Summary, "could not get the NCCL unique id") {
		t.Errorf("after rank 0's OOM: want the OOM, then the wait following it:\n%s", js(r))
	}
	quietIn(t, "I keep seeing retrieving ncclUniqueId from [0] via c10d key-value store in my logs\n")
}

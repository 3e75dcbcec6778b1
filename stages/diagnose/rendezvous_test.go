package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestStoreJoinTimeout: the c10d store's server giving up on clients that never joined is an
// init failure that says how many joined; other store timeouts keep their own reading.
func TestStoreJoinTimeout(t *testing.T) {
	log := "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 3/4 clients joined.\n"
	if f, ok := firstFault(t, log, diagnose.KindInitFailure); ok &&
		!strings.HasPrefix(f.Summary, "The job's processes never all met: the c10d store on the master waited for 4 and 3 joined") {
		t.Errorf("join timeout: %s", f.Summary)
	}
	log = "[rank2]: torch.distributed.DistStoreError: Timed out after 301 seconds waiting for clients. 7/8 clients joined.\n"
	if f, ok := firstFault(t, log, diagnose.KindInitFailure, 2); ok && !strings.HasPrefix(f.Summary, "rank 2: the job's processes never all met") {
		t.Errorf("labelled: %s", f.Summary)
	}
	r := diagnoseBytes(t, "job.log", []byte("torch.distributed.DistStoreError: Timed out after 30 seconds waiting for clients. 4/4 clients joined.\n"), 0)
	if len(r.Findings) > 0 && r.Findings[0].Kind == diagnose.KindInitFailure {
		t.Errorf("every client joined: %s", js(r))
	}
}

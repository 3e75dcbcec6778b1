package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestDevMismatch: NCCL 2.4-2.7's device check of the ranks' calls, asserted or only
// suspected, is a mismatch seen from the rank it names, with or without the line's head; and
// 2.30's WARN source with its function reads behind a head cut to its device.
func TestDevMismatch(t *testing.T) {
	const asserted = "init.cc:883 NCCL WARN Mismatched collective detected, please check your collective calls at and around rank 3. You can use NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=COLL to see the collective logs\n"
	const suspected = "init.cc:892 NCCL WARN Your program may be hanging, this may be caused by a collective mismatch around rank 1. Please check your collective calls at and around this rank. You can use NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=COLL to see the collective logs\n"
	for _, c := range []struct {
		log, want string
		rank      int64
	}{
		{"node7:4242:4300 [3] " + asserted, "Rank 3's device saw a peer issue a different collective", 3},
		{"[3] " + asserted, "Rank 3's device saw a peer issue a different collective", 3},
		{"[0] " + suspected, "Rank 1 waited on a collective its peers had moved past", 1},
	} {
		if f, ok := firstFault(t, c.log, diagnose.KindMismatch, c.rank); ok && !strings.HasPrefix(f.Summary, c.want) {
			t.Errorf("%.40q: summary %q", c.log, f.Summary)
		}
	}
	const destroyed = "    e539:2088762:2088762 [1] init.cc:1969 NCCL WARN comm 0x55ec10690820 has already been destroyed\n"
	if f, ok := firstFault(t, destroyed, diagnose.KindInvalidUsage); ok && !strings.Contains(f.Summary, "already been destroyed") {
		t.Errorf("a double destroy: %q", f.Summary)
	}
	const registered = "[1] nccl/src/register/register.cc:42 (ncclRegister) NCCL WARN Cuda failure 500 'named symbol not found'\n" +
		"[1] NCCL INFO nccl/src/register/register.cc:161 (ncclCommRegister) -> 1\n"
	if f, ok := firstFault(t, registered, diagnose.KindCudaError); ok && (len(f.GPUs) != 1 || f.GPUs[0] != 1) {
		t.Errorf("2.30's WARN behind a device head: GPUs %v", f.GPUs)
	}
	// A head's words before the level that are no source and function stay unread.
	if r := diagnoseBytes(t, "job.log", []byte("[1] node 7 pid 9 (x) NCCL WARN Cuda failure 500 'named symbol not found'\n"), 0); r.Status == diagnose.StatusFault {
		t.Errorf("words that are no source: %s", js(r))
	}
}

package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestLabelledException: an NCCL exception's lines behind a launcher's `[name|index]:` label
// are read as without it: the socket layer's last error is the first fault, with no rank
// claimed (the label's index is the launcher's).
func TestLabelledException(t *testing.T) {
	lines := []string{
		"[learner1|1]:torch.distributed.DistBackendError: NCCL error in: c10d/ProcessGroupNCCL.cpp:1900, internal error, NCCL version 2.21.5",
		"[learner1|1]:ncclInternalError: Internal check failed.",
		"[learner1|1]:Last error:",
		"[learner1|1]:ncclSocketInit: connecting to address  with family 0 is neither AF_INET(2) nor AF_INET6(10)",
	}
	r := diagnoseBytes(t, "label.log", []byte(strings.Join(lines, "\n")+"\n"), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("status %s (%s), want fault:\n%s", r.Status, r.Reason, js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindNetworkError || len(f.Ranks) != 0 || !strings.Contains(f.Summary, "ncclSocketInit") {
		t.Errorf("first finding %s ranks %v: %s, want a network error on ncclSocketInit, no rank", f.Kind, f.Ranks, f.Summary)
	}
}

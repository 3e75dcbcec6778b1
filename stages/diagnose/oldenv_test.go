package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestOldEnvelopeWarn: NCCL 2.2's lines, whose envelope has no `NCCL`, are read: the
// bootstrap's failed connect and its error chain are a network error of that process.
func TestOldEnvelopeWarn(t *testing.T) {
	lines := []string{
		"node-a:700:700 [0] INFO NET : Using interface eth0:10.1.0.1<0>",
		"node-a:700:700 [0] INFO Using internal Network Socket",
		"",
		"node-a:700:712 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out",
		"node-a:700:712 [0] INFO bootstrap.cu:28 -> 2 [Net]",
		"node-a:700:712 [0] INFO bootstrap.cu:260 -> 2",
	}
	r := diagnoseBytes(t, "old.log", []byte(strings.Join(lines, "\n")+"\n"), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("status %s (%s), want fault:\n%s", r.Status, r.Reason, js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindNetworkError || !slices.Equal(f.Processes, []string{"node-a:700"}) || !strings.Contains(f.Summary, "Call to connect failed") {
		t.Errorf("first finding %s of %v: %s, want node-a:700's network error", f.Kind, f.Processes, f.Summary)
	}
}

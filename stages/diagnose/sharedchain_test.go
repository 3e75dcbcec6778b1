package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestSharedChain: where the log holds one process's CUDA WARN and the others' chains of the
// same result without theirs (an excerpt of every rank failing its own set-up call), the
// fault is one shared finding of every process; a chain of another result, or a result a
// process meets on a peer's account, keeps the one process first.
func TestSharedChain(t *testing.T) {
	data, ps := warnJob(t)
	run := func(ownRes, otherRes int, msg string) diagnose.Report {
		lines := chain(ps[2], "transport/nvls.cc:157", msg, ownRes, "transport/nvls.cc:328", "init.cc:1236")
		for r := range 8 {
			if r != 2 {
				lines += frameAt(ps[r], 7000+r, "transport/nvls.cc:328", otherRes) + frameAt(ps[r], 7000+r, "init.cc:1236", otherRes)
			}
		}
		return diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
	}
	r := run(1, 1, "Cuda failure 1 'invalid argument'")
	if len(r.Findings) == 0 {
		t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
	}
	if f := r.Findings[0]; f.Kind != diagnose.KindCudaError || !f.Shared || len(f.Processes) != 8 || !strings.Contains(f.Summary, "ncclUnhandledCudaError") {
		t.Errorf("every rank's CUDA chain: first finding %s (shared %v) of %d processes, want a shared cuda-error of 8: %s", f.Kind, f.Shared, len(f.Processes), f.Summary)
	}
	for _, c := range []struct {
		name             string
		ownRes, otherRes int
		msg              string
	}{
		{"others-remote", 1, 6, "Cuda failure 1 'invalid argument'"},
		{"system-error", 2, 2, "Call to ibv_modify_qp failed with error Connection timed out"},
	} {
		r := run(c.ownRes, c.otherRes, c.msg)
		if len(r.Findings) == 0 || r.Findings[0].Shared || !slices.Equal(r.Findings[0].Processes, []string{ps[2].name()}) {
			t.Errorf("%s: want %s alone first, not shared:\n%s", c.name, ps[2].name(), js(r))
		}
	}
}

// TestSharedChainAPIOnly: where the others' chains show only NCCL's API frames (`init.cc:1730
// -> 1`: their calls returned the result, the log does not show where they met it), the
// process whose WARN the log holds failed first, and their chains follow it.
func TestSharedChainAPIOnly(t *testing.T) {
	data, ps := warnJob(t)
	lines := chain(ps[2], "init.cc:416", "Cuda failure 'operation not supported'", 1, "init.cc:1397", "init.cc:1730")
	for r := range 8 {
		if r != 2 {
			lines += frameAt(ps[r], ps[r].pid, "init.cc:1730", 1)
		}
	}
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
	if len(r.Findings) == 0 || r.Findings[0].Shared || !slices.Equal(r.Findings[0].Processes, []string{ps[2].name()}) {
		t.Errorf("want %s alone first, not shared:\n%s", ps[2].name(), js(r))
	}
}

package diagnose_test

import (
	"slices"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestChainEnqueueMainThread: a chain without its WARN that returns through enqueue.cc on
// the process's main thread is its collective call's error (the program's traceback
// follows); on another thread it proves nothing alone.
func TestChainEnqueueMainThread(t *testing.T) {
	main := "cx2:623868:623868 [0] NCCL INFO enqueue.cc:2432 -> 1\nTraceback (most recent call last):\n  File \"rlhf.py\", line 7, in <module>\n"
	r := diagnoseBytes(t, "enq.log", []byte(main), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindCudaError ||
		!slices.Equal(r.Findings[0].Processes, []string{"cx2:623868"}) {
		t.Errorf("enqueue.cc chain on the main thread: want cx2:623868's CUDA error:\n%s", js(r))
	}
	other := "cx2:623868:623901 [0] NCCL INFO enqueue.cc:2432 -> 1\n"
	if r := diagnoseBytes(t, "enq.log", []byte(other), 0); r.Status == diagnose.StatusFault {
		t.Errorf("enqueue.cc chain on another thread: status fault, want none:\n%s", js(r))
	}
}

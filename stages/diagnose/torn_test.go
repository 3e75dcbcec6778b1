package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// tornLines are a traceback whose exception is PyTorch's for work a destroyed process group
// aborted.
var tornLines = []string{
	"Traceback (most recent call last):",
	`  File "train.py", line 80, in main`,
	"    loss.backward()",
	"RuntimeError: NCCL communicator was aborted on rank 1.  Original reason for failure was: Process Group destroyed on rank 1",
}

// TestTornDown: work aborted as a process group is destroyed is a follow-on of the fault that
// ended the process; alone in the log, it is the first sign of a fault, whose cause the log
// does not show.
func TestTornDown(t *testing.T) {
	data, _ := warnJob(t)
	log := string(data) + strings.Join(tornLines, "\n") + "\n"
	if f, ok := firstFault(t, log, diagnose.KindCrash, 1); ok && !strings.Contains(f.Summary, "what ended it is not in the log") {
		t.Errorf("alone: %s", f.Summary)
	}
	oom := "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.14 GiB of which 1.02 GiB is free.\n"
	r := diagnoseBytes(t, "job.log", []byte(string(data)+oom+strings.Join(tornLines, "\n")+"\n"), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindOOM {
		t.Fatalf("after another rank's OOM: want the OOM first:\n%s", js(r))
	}
	for _, f := range r.Findings {
		if f.Kind == diagnose.KindCrash {
			t.Errorf("the torn-down rank is a fault of its own: %s", f.Summary)
		}
	}
	quietIn(t, `logger.info(f"Process Group destroyed on rank {rank}")`, "INFO: DDP: Process group destroyed on rank 3.")
}

package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// ringLog is one process's init (NCCL 2.7, which prints no Init START) failing NCCL's check
// of its rings, and PyTorch's exception repeating the ncclResult (exc) under its traceback.
func ringLog(exc string) string {
	return strings.Join([]string{
		"node1:1234:1234 [0] NCCL INFO Bootstrap : Using [0]eth0:10.1.1.1<0>",
		"node1:1234:1234 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.1.1<0>",
		"NCCL version 2.7.8+cuda11.0",
		"node1:1234:1290 [0] NCCL INFO Channel 00/02 :    0   1",
		"node1:1234:1290 [0] graph/rings.cc:43 NCCL WARN Error : ring 0 does not loop back to start (1 != 0)",
		"node1:1234:1290 [0] NCCL INFO graph/connect.cc:213 -> 3",
		"node1:1234:1290 [0] NCCL INFO init.cc:791 -> 3",
		"node1:1234:1290 [0] NCCL INFO group.cc:72 -> 3 [Async thread]",
		"Traceback (most recent call last):",
		`  File "train.py", line 80, in main`,
		"    model = DDP(model, device_ids=[local_rank])",
		exc,
	}, "\n") + "\n"
}

// TestInternalErrorEcho: a WARN chain whose ncclResult is 3 is an internal-error, and the
// process's own exception that repeats that result is its evidence, not another process's
// follow-on error; an exception of ncclRemoteError still is a follow-on.
func TestInternalErrorEcho(t *testing.T) {
	r := diagnoseBytes(t, "job.log", []byte(ringLog("RuntimeError: NCCL error in: /opt/conda/torch/lib/c10d/ProcessGroupNCCL.cpp:784, internal error, NCCL version 2.7.8")), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) != 1 {
		t.Fatalf("want one finding:\n%s", js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindInternalError || !strings.HasSuffix(f.Summary, "Error : ring 0 does not loop back to start (1 != 0)") {
		t.Errorf("first finding %s: %s, want an internal-error quoting the WARN", f.Kind, f.Summary)
	}
	if last := f.Evidence[len(f.Evidence)-1]; last.Line != 12 {
		t.Errorf("the exception (line 12) is not the finding's evidence: %+v", f.Evidence)
	}
	r = diagnoseBytes(t, "job.log", []byte(ringLog("RuntimeError: NCCL error: remote process exited or there was a network error, NCCL version 2.7.8")), 0)
	if len(r.Findings) != 2 || r.Findings[0].Kind != diagnose.KindInternalError || r.Findings[1].Kind != diagnose.KindRemoteError {
		t.Errorf("a remote error's exception: want the internal-error, then a follow-on:\n%s", js(r))
	}
}

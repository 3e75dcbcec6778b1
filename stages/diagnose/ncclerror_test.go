package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestNCCLErrorRepeat: PyTorch's `RuntimeError: NCCL Error 2: unhandled system error` repeats
// the ncclResult of an NCCL call, as `NCCL error in: ...` does: a rank's echo, not a crash
// of its own. Printed above the WARN chain that explains it (a paste of the traceback, then
// the NCCL lines), it follows that WARN's process; alone, it is still the fault the log
// shows.
func TestNCCLErrorRepeat(t *testing.T) {
	exc := "[rank10]: Traceback (most recent call last):\n" +
		"[rank10]:   File \"train.py\", line 10, in <module>\n" +
		"[rank10]: RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)\n"
	warn := "gpu-a:1458548:1480527 [0] misc/ibvwrap.cc:182 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Invalid argument\n" +
		"gpu-a:1458548:1480527 [0] NCCL INFO transport/net_ib.cc:1872 -> 2\n" +
		"gpu-a:1458548:1480527 [0] NCCL INFO transport/net.cc:853 -> 2\n"
	r := diagnoseBytes(t, "job.log", []byte(exc+warn), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError ||
		!slices.Equal(r.Findings[0].Processes, []string{"gpu-a:1458548"}) {
		t.Errorf("want gpu-a:1458548's network error first:\n%s", js(r))
	}
	r = diagnoseBytes(t, "job.log", []byte(exc), 0)
	if r.Status != diagnose.StatusFault || !slices.Contains(r.Findings[0].Ranks, 10) {
		t.Errorf("the exception alone: want a fault of rank 10:\n%s", js(r))
	}
}

// TestFrameworkCallFailed: TensorFlow's and Horovod's `UnknownError: ncclCommInitRank failed:
// unhandled system error` reports the result of the process's NCCL call: its WARN chain's
// kind stays the finding's (a connect that timed out is a network error, not a crash), and
// alone it is the fault, with the result its words name.
func TestFrameworkCallFailed(t *testing.T) {
	warn := "h1:285594:285607 [0] include/socket.h:361 NCCL WARN Call to connect failed : Connection timed out\n" +
		"h1:285594:285607 [0] NCCL INFO transport/net_socket.cu:139 -> 2\n" +
		"h1:285594:285607 [0] NCCL INFO init.cu:557 -> 2\n"
	exc := "Traceback (most recent call last):\n" +
		"  File \"session.py\", line 1322, in _do_call\n" +
		"tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitRank failed: unhandled system error\n"
	r := diagnoseBytes(t, "job.log", []byte(warn+exc), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError ||
		!slices.Equal(r.Findings[0].Processes, []string{"h1:285594"}) {
		t.Errorf("want h1:285594's network error first:\n%s", js(r))
	}
	r = diagnoseBytes(t, "job.log", []byte(exc), 0)
	if r.Status != diagnose.StatusFault || !strings.Contains(r.Findings[0].Summary, "ncclSystemError") {
		t.Errorf("the exception alone: want a fault naming ncclSystemError:\n%s", js(r))
	}
}

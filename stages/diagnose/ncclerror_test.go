package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestFrameworkRepeats: a framework's line that repeats the ncclResult of an NCCL call is the
// process's echo, not a crash of its own. Beside the WARN chain that explains it (printed
// after it too: a paste of the traceback, then the NCCL lines), the WARN's process and kind
// are the first fault; alone, the line is still the fault the log shows, with its result.
//   - PyTorch's `RuntimeError: NCCL Error 2: unhandled system error`, the result by number;
//   - TensorFlow's and Horovod's `UnknownError: ncclCommInitRank failed: unhandled system
//     error`, the result by NCCL's words (a connect that timed out stays a network error).
//
// Alone, ncclSystemError is a system-error: a system call failed in the process.
func TestFrameworkRepeats(t *testing.T) {
	for name, c := range map[string]struct{ warn, exc, proc, alone string }{
		"pytorch numbered": {
			warn: "gpu-a:1458548:1480527 [0] misc/ibvwrap.cc:182 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Invalid argument\n" +
				"gpu-a:1458548:1480527 [0] NCCL INFO transport/net_ib.cc:1872 -> 2\n" +
				"gpu-a:1458548:1480527 [0] NCCL INFO transport/net.cc:853 -> 2\n",
			exc: "[rank10]: Traceback (most recent call last):\n" +
				"[rank10]:   File \"train.py\", line 10, in <module>\n" +
				"[rank10]: RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)\n",
			proc: "gpu-a:1458548", alone: "rank 10 hit a system error first (ncclSystemError)",
		},
		"tensorflow call": {
			warn: "h1:285594:285607 [0] include/socket.h:361 NCCL WARN Call to connect failed : Connection timed out\n" +
				"h1:285594:285607 [0] NCCL INFO transport/net_socket.cu:139 -> 2\n" +
				"h1:285594:285607 [0] NCCL INFO init.cu:557 -> 2\n",
			exc: "Traceback (most recent call last):\n" +
				"  File \"session.py\", line 1322, in _do_call\n" +
				"tensorflow.python.framework.errors_impl.UnknownError: ncclCommInitRank failed: unhandled system error\n",
			proc: "h1:285594", alone: "hit a system error first (ncclSystemError)",
		},
	} {
		for _, log := range []string{c.exc + c.warn, c.warn + c.exc} {
			r := diagnoseBytes(t, name, []byte(log), 0)
			if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError ||
				!slices.Equal(r.Findings[0].Processes, []string{c.proc}) {
				t.Errorf("%s: want %s's network error first:\n%s", name, c.proc, js(r))
			}
		}
		r := diagnoseBytes(t, name, []byte(c.exc), 0)
		if r.Status != diagnose.StatusFault || !strings.Contains(r.Findings[0].Summary, c.alone) || r.Findings[0].Kind != diagnose.KindSystemError {
			t.Errorf("%s alone: want a system-error saying %q:\n%s", name, c.alone, js(r))
		}
	}
}

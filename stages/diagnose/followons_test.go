package diagnose_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestProxyFollowOnsAlone: a process's proxy thread passing on errors met elsewhere (a local
// rank's connection that broke, a request it failed, and the abort chain after it) proves a
// fault but not which: unknown, the follow-ons listed, no process named as the first fault.
// Where the process's own error came first, that error is the first fault.
func TestProxyFollowOnsAlone(t *testing.T) {
	const onlyFollowOns = "gpu-b7:40211:40388 [3] proxy.cc:1495 NCCL WARN [Service thread] Could not receive type from localRank 5, res=3, closed=0\n" +
		"gpu-b7:40211:40388 [3] proxy.cc:1519 NCCL WARN [Proxy Service 11] Failed to execute operation Connect from rank 13, retcode 3\n" +
		"gpu-b7:40211:40388 [3] NCCL INFO socketProgressOpt: abort called\n" +
		"gpu-b7:40211:40388 [3] NCCL INFO misc/socket.cc:805 -> 3\n"
	r := diagnoseBytes(t, "job.log", []byte(onlyFollowOns), 0)
	if r.Status != diagnose.StatusUnknown || len(r.Findings) != 1 || r.Findings[0].Kind != diagnose.KindRemoteError ||
		!strings.Contains(r.Reason, "pass on a fault met elsewhere") {
		t.Errorf("follow-ons alone: want unknown with the follow-ons:\n%s", js(r))
	}
	const own = "gpu-b7:40211:40211 [3] misc/strongstream.cc:395 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'\n" +
		"gpu-b7:40211:40211 [3] NCCL INFO enqueue.cc:2041 -> 1\n"
	if f, ok := firstFault(t, own+onlyFollowOns, diagnose.KindCudaError, 11); ok && !slices.Equal(f.Processes, []string{"gpu-b7:40211"}) {
		t.Errorf("the process's own error first: %v", f.Processes)
	}
}

// TestLastErrorPeerClosed: an NCCL exception whose `Last error:` (on its own line) says the
// peer closed the connection names that peer's host as the one that went away first; the
// exception is its follow-on.
func TestLastErrorPeerClosed(t *testing.T) {
	lines := []string{
		"[rank2]:[E301 08:14:22.512034118 ProcessGroupNCCL.cpp:552] [Rank 2] Collective WorkNCCL(SeqNum=88, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, Timeout(ms)=600000) raised the following async exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5",
		"ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
		"Last error:",
		"socketProgress: Connection closed by remote peer trainer-node-17.example.internal<41977>",
	}
	r := diagnoseBytes(t, "job.log", []byte(strings.Join(lines, "\n")+"\n"), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) < 2 || r.Findings[0].Kind != diagnose.KindConnectionClosed {
		t.Fatalf("want the peer's going away first, the exception after it:\n%s", js(r))
	}
	if f := r.Findings[0]; !slices.Contains(f.Hosts, "trainer-node-17.example.internal") || !strings.Contains(f.Summary, "trainer-node-17.example.internal went away first") {
		t.Errorf("the peer the last error names: %v %q", f.Hosts, f.Summary)
	}
	if f := r.Findings[1]; f.Kind != diagnose.KindRemoteError || f.Follows == nil {
		t.Errorf("the exception: want a follow-on: %s %v", f.Kind, f.Follows)
	}
}

// TestAbortAfterWhat: `Fatal Python error: Aborted` right after the terminate's what() that
// carries the watchdog's timeout is how the watchdog ended the process: one finding, the
// ranks' shared timeout. The same signal before any timeout is a crash of its own.
func TestAbortAfterWhat(t *testing.T) {
	dog := func(r, ms int) string {
		return "[E ProcessGroupNCCL.cpp:828] [Rank " + strconv.Itoa(r) + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5120, OpType=ALLGATHER, Timeout(ms)=1800000) ran for " + strconv.Itoa(ms) + " milliseconds before timing out.\n"
	}
	const down = "[E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process down.\n" +
		"terminate called after throwing an instance of 'std::runtime_error'\n"
	const abort = "Fatal Python error: Aborted\n"
	end := down + "  what():  " + strings.TrimPrefix(dog(1, 1800412), "[E ProcessGroupNCCL.cpp:828] ") + abort
	r := diagnoseBytes(t, "job.log", []byte(dog(0, 1800377)+dog(1, 1800412)+end), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || f[0].Kind != diagnose.KindWatchdogTimeout {
		t.Errorf("the watchdog's abort: want the timeout alone:\n%s", js(r))
	}
	firstFault(t, abort+dog(0, 1800377)+dog(1, 1800412), diagnose.KindCrash)
}

// TestBehindLogger: an exception printed under vLLM's logger head, behind Ray's worker prefix,
// is read as the exception: its process is the worker's pid, its origin the `Last error:`
// message without the head. glog's head and pytest's summary of a failed test are read the
// same way, and a paste indented as a block keeps PyTorch's lines.
func TestBehindLogger(t *testing.T) {
	const head = "(RayWorkerWrapper pid=52817) ERROR 11-02 14:03:51 worker_base.py:467] "
	log := head + "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n" +
		head + "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n" +
		head + "Last error:\n" +
		head + "Call to ibv_create_cq failed with error Cannot allocate memory\n"
	f, ok := firstFault(t, log, diagnose.KindNetworkError)
	if ok && (!slices.Equal(f.Processes, []string{"pid 52817"}) || !strings.HasSuffix(f.Summary, "NCCL's last error: Call to ibv_create_cq failed with error Cannot allocate memory")) {
		t.Errorf("vLLM's head: %v %q", f.Processes, f.Summary)
	}
	const glog = "E1102 14:03:51.204117 52817 engine.cc:88] RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
	firstFault(t, glog, diagnose.KindCudaError)
	const pytest = "FAILED tests/dist/test_comm.py::TestAllReduce::test_sum[4] - torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.17.1\n"
	firstFault(t, pytest, diagnose.KindSystemError)
	const indented = "    [rank3]:[E1102 14:03:51.204117873 ProcessGroupNCCL.cpp:1896] [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n"
	firstFault(t, indented, diagnose.KindCudaError, 3)
}

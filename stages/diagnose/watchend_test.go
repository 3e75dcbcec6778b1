package diagnose_test

import (
	"fmt"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestWatchEnded: a terminate whose what() the excerpt cut, after the watchdog's timeout and
// its "taking the entire process down", is how the watchdog ended the process: one finding,
// the timeout's; a crash printed before the timeout is still the first fault.
func TestWatchEnded(t *testing.T) {
	const dog = "2023-12-28T13:17:07.318704498Z [E ProcessGroupNCCL.cpp:828] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=60000) ran for 69662 milliseconds before timing out.\n" +
		"2023-12-28T13:17:07.318732015Z [E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process down.\n"
	const term = "2023-12-28T13:17:07.318739139Z terminate called after throwing an instance of 'std::runtime_error'\n"
	r := diagnoseBytes(t, "job.log", []byte(dog+term), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || f[0].Kind != diagnose.KindWatchdogTimeout {
		t.Errorf("the watchdog's ending: want one watchdog finding:\n%s", js(r))
	}
	const segv = "2023-12-28T13:10:00.000000000Z Segmentation fault (core dumped)\n"
	firstFault(t, segv+dog, diagnose.KindCrash)
}

// TestTakenDownGlued: the watchdog's word that it takes the process down, glued behind a
// progress bar that printed no newline, is read; the bare terminate right after it is the
// watchdog's, whichever of the ranks that timed out printed both.
func TestTakenDownGlued(t *testing.T) {
	dog := func(r int) string {
		return fmt.Sprintf("[E ProcessGroupNCCL.cpp:566] [Rank %d] Watchdog caught collective operation timeout: WorkNCCL(OpType=BROADCAST, Timeout(ms)=60000) ran for 66854 milliseconds before timing out.\n", r)
	}
	const glued = "    Class     Images     Labels  78% 25/32 [01:12<00:20,  2.86s/it][E ProcessGroupNCCL.cpp:325] Some NCCL operations have failed or timed out. " +
		"Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. To avoid this inconsistency, we are taking the entire process down.\n"
	const term = "terminate called after throwing an instance of 'std::runtime_error'\n"
	if f, ok := firstFault(t, glued+term, diagnose.KindWatchdogTimeout); ok && len(f.Evidence) < 2 {
		t.Errorf("the glued line and its terminate: want both in the watchdog's finding: %+v", f.Evidence)
	}
	firstFault(t, dog(2)+dog(3)+glued+term, diagnose.KindWatchdogTimeout, 2, 3)
}

// TestWatchAbortedExit: the launcher's first exit by SIGABRT (-6) of a process with nothing of
// its own, in a log of watchdog timeouts, is the watchdog's abort: it follows the timeout.
// Without a timeout it is the first fault.
func TestWatchAbortedExit(t *testing.T) {
	const dog = "RuntimeError: NCCL communicator was aborted on rank 0.  Original reason for failure was: [Rank 0] Watchdog caught collective operation timeout: " +
		"WorkNCCL(SeqNum=35582, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800366 milliseconds before timing out.\n"
	const exit = "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 1 (pid: 886322) of binary: /usr/bin/python\n"
	r := diagnoseBytes(t, "job.log", []byte(dog+exit), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) < 2 || f[0].Kind != diagnose.KindWatchdogTimeout || f[1].Kind != diagnose.KindProcessExit || f[1].Follows == nil {
		t.Errorf("timeout, then a -6 exit: want the timeout first and the exit after it:\n%s", js(r))
	}
	firstFault(t, exit, diagnose.KindProcessExit)
}

package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestTakenDown: PyTorch's `Some NCCL operations have failed or timed out` proves the rank's
// fault where its timeout's own line is not in the log, in 2.4's labelled form and 1.x's; with
// another rank's timeout at work 1 it is that same shared timeout; prose that quotes it in a
// healthy job is not read.
func TestTakenDown(t *testing.T) {
	down := "[rank6]:[E624 04:14:29.224103812 ProcessGroupNCCL.cpp:1664] [Rank 6] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n" +
		"[rank6]:[E624 04:14:29.224121436 ProcessGroupNCCL.cpp:1670] [Rank 6] To avoid data inconsistency, we are taking the entire process down.\n"
	r := diagnoseBytes(t, "job.log", []byte(down), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || f[0].Kind != diagnose.KindWatchdogTimeout || !slices.Equal(f[0].Ranks, []int64{6}) ||
		!strings.Contains(f[0].Summary, "failed or timed out") {
		t.Errorf("rank 6's lines alone: want one watchdog finding of rank 6 that says failed or timed out:\n%s", js(r))
	}
	old := "[E ProcessGroupNCCL.cpp:325] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. To avoid data inconsistency, we are taking the entire process down.\n"
	if r := diagnoseBytes(t, "job.log", []byte(old), 0); r.Status != diagnose.StatusFault {
		t.Errorf("1.x's one line: status %s, want fault:\n%s", r.Status, js(r))
	}
	other := "[rank2]:[E816 01:09:38.174648046 ProcessGroupNCCL.cpp:1595] [PG 0 (default_pg) Rank 2] Process group watchdog thread terminated with exception: " +
		"[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600034 milliseconds before timing out.\n"
	zero := strings.ReplaceAll(down, "6", "0")
	r = diagnoseBytes(t, "job.log", []byte(zero+other), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || !slices.Equal(f[0].Ranks, []int64{0, 2}) {
		t.Errorf("rank 0 taken down, rank 2's timeout: want one finding of ranks 0 and 2:\n%s", js(r))
	}
	quietIn(t, "# \"Some NCCL operations have failed or timed out\" in the log means the watchdog fired\n")

	// 2.4's second sentence alone (an excerpt that cut the first), beside another rank's
	// timeout: ranks 0-3 share it; a rank that printed both sentences counts once. (Where rank
	// 0's is not there, TestWatchMissingRank: the rank left out is the suspect.)
	tail := ""
	for _, r := range []string{"0", "2", "3"} {
		tail += "[rank" + r + "]:[E424 01:17:25.958978410 ProcessGroupNCCL.cpp:695] [Rank " + r + "] To avoid data inconsistency, we are taking the entire process down.\n"
	}
	one := strings.ReplaceAll(strings.ReplaceAll(other, "rank2", "rank1"), "Rank 2", "Rank 1")
	r = diagnoseBytes(t, "job.log", []byte(tail+one), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || !slices.Equal(f[0].Ranks, []int64{0, 1, 2, 3}) || !strings.HasPrefix(f[0].Summary, "Every rank") {
		t.Errorf("ranks 0, 2 and 3 taken down, rank 1's timeout: want one shared finding of ranks 0-3:\n%s", js(r))
	}
	r = diagnoseBytes(t, "job.log", []byte(down), 0)
	if f := r.Findings; len(f) != 1 || len(f[0].Evidence) != 1 {
		t.Errorf("a rank's two sentences: want one line of evidence:\n%s", js(r))
	}
}

// TestTimeoutWhatAndWrappers: `terminate called` over a what() that carries a watchdog timeout
// is the timeout, whatever type was thrown (PyTorch 1.x's std::runtime_error), not a crash;
// the watchdog's exception after Ray's C++ log head, or after only its process group's head,
// is read.
func TestTimeoutWhatAndWrappers(t *testing.T) {
	what := "terminate called after throwing an instance of 'std::runtime_error'\n" +
		"  what():  [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1804582 milliseconds before timing out.\n"
	r := diagnoseBytes(t, "job.log", []byte(what), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || f[0].Kind != diagnose.KindWatchdogTimeout || !slices.Equal(f[0].Ranks, []int64{0}) {
		t.Errorf("terminate over a timeout: want rank 0's watchdog timeout only:\n%s", js(r))
	}
	for _, line := range []string{
		"(ActorModelRayActor pid=3946, ip=10.164.43.243) [2024-12-24 23:47:14,381 E 3946 4620] logging.cc:101: Unhandled exception: N3c1016DistBackendErrorE. what(): [PG ID 0 PG GUID 0(default_pg) Rank 6] " +
			"Process group watchdog thread terminated with exception: [Rank 6] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=970, OpType=_ALLGATHER_BASE, NumelIn=524288, NumelOut=8388608, Timeout(ms)=7200000) ran for 7200017 milliseconds before timing out.\n",
		"[PG ID 0 PG GUID 0(default_pg) Rank 6] Process group watchdog thread terminated with exception: [Rank 6] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=970, OpType=_ALLGATHER_BASE, NumelIn=524288, NumelOut=8388608, Timeout(ms)=7200000) ran for 7200017 milliseconds before timing out.\n",
	} {
		if f, ok := firstFault(t, line, diagnose.KindWatchdogTimeout, 6); ok && !strings.Contains(f.Evidence[0].Text, "at work 970 (_ALLGATHER_BASE)") {
			t.Errorf("%.50q: want rank 6's timeout at work 970:\n%s", line, f.Evidence[0].Text)
		}
	}
}

// TestVerbsCallErrno: a verbs call that failed with an errno whose words read `Invalid
// argument` is the process's network error at set-up, not NCCL refusing a call.
func TestVerbsCallErrno(t *testing.T) {
	log := "node7:5330:7970 [3] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument\n" +
		"node7:5330:7970 [3] NCCL INFO transport/net_ib.cc:368 -> 2\n" +
		"node7:5330:7970 [3] NCCL INFO transport/net.cc:190 -> 2\n"
	r := diagnoseBytes(t, "job.log", []byte(log), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || f[0].Kind != diagnose.KindNetworkError || !slices.Equal(f[0].Processes, []string{"node7:5330"}) {
		t.Errorf("want node7:5330's network error:\n%s", js(r))
	}
}

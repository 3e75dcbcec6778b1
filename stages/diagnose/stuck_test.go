package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// stuckLine is PyTorch 2.4's heartbeat monitor on rank 7's stuck watchdog.
const stuckLine = "[rank7]:[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 7] " +
	"ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. " +
	"This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, and could be triggered " +
	"by another thread holding the GIL inside a CUDA api, or other deadlock-prone behaviors.\n"

// TestStuckWatchdog: the heartbeat monitor's line on a stuck watchdog proves a fault (it ends
// the process): alone, the first fault, on the rank it names (by label or by its head), with
// the seconds; after another rank's watchdog timeout, a finding that follows it. Other text
// that quotes the words is not read.
func TestStuckWatchdog(t *testing.T) {
	r := diagnoseBytes(t, "job.log", []byte(stuckLine), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) != 1 {
		t.Fatalf("the line alone: status %s, want one fault finding:\n%s", r.Status, js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindWatchdogTimeout || !slices.Equal(f.Ranks, []int64{7}) || !strings.Contains(f.Summary, "480 seconds") {
		t.Errorf("the line alone: %s of ranks %v (%q), want a watchdog-timeout of rank 7 that says 480 seconds", f.Kind, f.Ranks, f.Summary)
	}
	old := "[E0626 05:14:36.393 ProcessGroupNCCL.cpp:1325] [PG 0 Rank 3] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1\n"
	r = diagnoseBytes(t, "job.log", []byte(old), 0)
	if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Ranks, []int64{3}) {
		t.Errorf("PyTorch 2.2's form: status %s, want a fault of rank 3:\n%s", r.Status, js(r))
	}
	timeout := "[rank2]:[E626 05:06:30.929096625 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught collective operation timeout: " +
		"WorkNCCL(SeqNum=120049, OpType=_ALLGATHER_BASE, NumelIn=16384000, NumelOut=131072000, Timeout(ms)=1800000) ran for 1800065 milliseconds before timing out.\n"
	r = diagnoseBytes(t, "job.log", []byte(stuckLine+timeout), 0)
	if len(r.Findings) != 2 || !slices.Equal(r.Findings[0].Ranks, []int64{2}) || r.Findings[1].Follows == nil || !slices.Equal(r.Findings[1].Ranks, []int64{7}) {
		t.Errorf("after rank 2's timeout: want rank 2's timeout first and rank 7's stuck watchdog after it:\n%s", js(r))
	}
	quietIn(t, "# raise it: the job died at NCCL's 480s default (\"watchdog got stuck for 480 seconds without making progress\"), a long wait, not a deadlock\n")
}

// TestStuckWatchdogOldForms: PyTorch 2.2-2.3 print their ERROR and FATAL lines with no date
// (`[E ProcessGroupNCCL.cpp:1316]`, `[F ...]`), the abort that did not return before the
// monitor's line, and the process group's head twice: each is read.
func TestStuckWatchdogOldForms(t *testing.T) {
	for _, line := range []string{
		"[rank1]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 1] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=0\n",
		"[rank1]:[E ProcessGroupNCCL.cpp:1025] [PG 0 Rank 1] Future for ProcessGroup abort timed out after 600000 ms\n",
		"[rank1]:[F ProcessGroupNCCL.cpp:1169] [PG 0 Rank 1] [PG 0 Rank 1] ProcessGroupNCCL's watchdog got stuck for 600 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API hang blocking the watchdog.\n",
	} {
		firstFault(t, line, diagnose.KindWatchdogTimeout, 1)
	}
}

// TestWatchdogException: the exception a watchdog thread ended with is the process's own
// error where it is one (a CUDA error), in PyTorch 2.0-2.3's form (PyTorch's text, not a
// damaged envelope), its what() and 2.4's; an NCCL error it repeats is read from its own
// line, and a timeout it re-raises is the rank's timeout, one finding with the timeout's own
// line where the log has it, never a crash.
func TestWatchdogException(t *testing.T) {
	for _, line := range []string{
		"[E ProcessGroupNCCL.cpp:916] [Rank 0] NCCL watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n",
		"terminate called after throwing an instance of 'c10::DistBackendError'\n  what():  [Rank 0] NCCL watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n",
		"[rank0]:[E416 00:03:25.080000000 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 0] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n",
	} {
		firstFault(t, line, diagnose.KindCudaError, 0)
	}
	timeout := "[rank1]:[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600062 milliseconds before timing out.\n" +
		"[rank1]:[E ProcessGroupNCCL.cpp:916] [Rank 1] NCCL watchdog thread terminated with exception: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600062 milliseconds before timing out.\n"
	r := diagnoseBytes(t, "job.log", []byte(timeout), 0)
	for _, f := range r.Findings {
		if f.Kind != diagnose.KindWatchdogTimeout {
			t.Errorf("a timeout the watchdog re-raises: a %s finding: %s", f.Kind, f.Summary)
		}
	}
	if len(r.Findings) != 1 || !slices.Equal(r.Findings[0].Ranks, []int64{1}) {
		t.Errorf("a timeout the watchdog re-raises: want one watchdog finding of rank 1:\n%s", js(r))
	}
	for _, wrapped := range []string{
		"[rank0]:[E416 00:03:25.080000000 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 0] Process group watchdog thread terminated with exception: " +
			"[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600036 milliseconds before timing out.\n",
		"[E ProcessGroupNCCL.cpp:916] [Rank 0] NCCL watchdog thread terminated with exception: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600036 milliseconds before timing out.\n",
	} {
		r := diagnoseBytes(t, "job.log", []byte(wrapped), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindWatchdogTimeout || !slices.Equal(r.Findings[0].Ranks, []int64{0}) ||
			!strings.Contains(r.Findings[0].Evidence[0].Text, "at work 5 (ALLREDUCE)") {
			t.Errorf("%.60q alone: want rank 0's watchdog timeout at work 5:\n%s", wrapped, js(r))
		}
	}
}

// TestGluedWatchdogException: the watchdog's exception glued behind a word (pytest's
// `FAILED`) is read as on a line of its own.
func TestGluedWatchdogException(t *testing.T) {
	const line = "[E ProcessGroupNCCL.cpp:1182] [Rank 2] NCCL watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n"
	for _, before := range []string{"", "FAILED"} {
		firstFault(t, before+line, diagnose.KindCudaError, 2)
	}
}

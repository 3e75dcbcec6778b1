package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestDumpReceived: a rank's word that it received the flight recorder's dump signal "due to
// a collective timeout from rank 13" is rank 13's timeout, not the receiver's, and names no
// process; joined with rank 13's own timeout line it is one rank; a signal observed with no
// rank named stays unread.
func TestDumpReceived(t *testing.T) {
	const got = "[rank0]:[E804 23:05:54.817424543 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank 0] Received a dump signal due to a collective timeout from  rank 13 and we will try our best to dump the debug info. " +
		"Last enqueued NCCL work: 1261, last completed NCCL work: 1259.This is only a best-effort attempt to dump the debug info.\n"
	const observed = "[rank0]:[E804 23:05:54.816499929 ProcessGroupNCCL.cpp:1849] [PG ID 0 PG GUID 0(default_pg) Rank 0] Observed flight recorder dump signal from another rank via TCPStore.\n"
	f, ok := firstFault(t, observed+got, diagnose.KindWatchdogTimeout, 13)
	if ok && (len(f.Processes) != 0 || !strings.HasPrefix(f.Summary, "Rank 13's")) {
		t.Errorf("the dump signal names rank 13 and no process: %+v", f)
	}
	const own = "[rank13]:[E804 23:05:50.100000000 ProcessGroupNCCL.cpp:616] [Rank 13] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1261, OpType=ALLTOALL_BASE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600010 milliseconds before timing out.\n"
	r := diagnoseBytes(t, "job.log", []byte(own+got), 0)
	if fs := r.Findings; r.Status != diagnose.StatusFault || len(fs) != 1 || !slices.Equal(fs[0].Ranks, []int64{13}) || fs[0].Shared {
		t.Errorf("rank 13's own timeout and rank 0's signal: want one finding of rank 13:\n%s", js(r))
	}
	if r := diagnoseBytes(t, "job.log", []byte(observed), 0); r.Status == diagnose.StatusFault {
		t.Errorf("a signal observed from no rank named: %s", js(r))
	}
}

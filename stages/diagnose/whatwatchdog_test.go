package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestWhatWatchdogIsATimeout: a terminate whose what() quotes a watchdog timeout is that
// rank's watchdog timeout, named by its rank in the process group the line names (PG 2, not
// the default group, and no launcher label gives the global rank), not a crash of unknown
// cause.
func TestWhatWatchdogIsATimeout(t *testing.T) {
	log := "terminate called after throwing an instance of 'c10::DistBackendError'\n" +
		"  what():  [PG 2 Rank 6] Process group watchdog thread terminated with exception: [Rank 6] Watchdog caught collective operation timeout: " +
		"WorkNCCL(SeqNum=77, OpType=ALLREDUCE, NumelIn=1024, NumelOut=1024, Timeout(ms)=600000) ran for 600123 milliseconds before timing out.\n"
	r := diagnoseBytes(t, "job.log", []byte(log), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindWatchdogTimeout || !slices.Equal(f.Ranks, []int64{6}) || !strings.HasPrefix(f.Summary, "Rank 6 of process group 2's PyTorch watchdog timed out") {
		t.Errorf("first finding %s ranks %v: %s; want rank 6 of process group 2's watchdog timeout", f.Kind, f.Ranks, f.Summary)
	}
}

// TestHostOnlyProcessNamed: a WARN whose envelope gives its host but no pid (a collector
// printed `host [dev]`) names that host as the process that lost its peer.
func TestHostOnlyProcessNamed(t *testing.T) {
	log := "node-q [3] misc/socket.cc:46 NCCL WARN socketProgressOpt: Call to send to 10.9.8.7<40000> failed : Connection reset by peer\n" +
		"node-q [3] NCCL INFO misc/socket.cc:64 -> 6\n"
	r := diagnoseBytes(t, "job.log", []byte(log), 0)
	if len(r.Findings) == 0 {
		t.Fatalf("no finding:\n%s", js(r))
	}
	if f := r.Findings[0]; !strings.Contains(f.Summary, "(node-q)") || !slices.Contains(f.Processes, "node-q") {
		t.Errorf("first finding does not name node-q: %s %v", f.Summary, f.Processes)
	}
}

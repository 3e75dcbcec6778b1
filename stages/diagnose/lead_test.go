package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestRankBehindLead: a WARN and its chain whose mpirun tag follows a collector's time, a
// logger's bracketed time, a host's label or a quote keep the tag's rank, as without the
// lead.
func TestRankBehindLead(t *testing.T) {
	lines := []string{
		"[1,2]<stdout>:smc-gpu-03:29880:30398 [0] init.cc:497 NCCL WARN Duplicate GPU detected : rank 2 and rank 0 both on CUDA device 1000",
		"[1,2]<stdout>:smc-gpu-03:29880:30398 [0] NCCL INFO init.cc:867 -> 5",
		"[1,3]<stdout>:smc-gpu-03:29881:30401 [0] NCCL INFO init.cc:903 -> 5",
	}
	leads := []string{"", "2024-05-01T10:00:00.123456Z ", "[2024-05-01 10:00:00,123] ", "node1: ", "> "}
	for _, lead := range leads {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(lead + l + "\n")
		}
		r := diagnoseBytes(t, "lead.log", []byte(b.String()), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) != 2 || !slices.Equal(r.Findings[0].Ranks, []int64{0, 2}) ||
			!slices.Equal(r.Findings[1].Ranks, []int64{3}) {
			t.Errorf("lead %q: want rank 2's WARN first (rank 0 on its GPU), then rank 3's chain:\n%s", lead, js(r))
		}
	}
}

// TestRayWorkerBehindLead: a watchdog line under Ray's prefix, behind a host's label or a
// logger's time, names the worker's pid as without them.
func TestRayWorkerBehindLead(t *testing.T) {
	const line = "(ActorModelRayActorBOX pid=12903) [rank1]:[E206 16:45:19.236012277 ProcessGroupNCCL.cpp:616] [Rank 1] " +
		"Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5919, OpType=_ALLGATHER_BASE, NumelIn=2, NumelOut=4, Timeout(ms)=1800000) ran for 1800098 milliseconds before timing out.\n"
	for _, lead := range []string{"", "node1: ", "> ", "[2024-05-01 10:00:00,123] "} {
		r := diagnoseBytes(t, "ray.log", []byte(lead+line), 0)
		if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Processes, []string{"pid 12903"}) {
			t.Errorf("lead %q: want the watchdog of pid 12903:\n%s", lead, js(r))
		}
	}
}

// TestRootCauseBehindTime: torchrun's root cause block behind a collector's time or a
// logger's bracketed one names its host and pid: the fields keep their own indent.
func TestRootCauseBehindTime(t *testing.T) {
	block := []string{
		"Root Cause (first observed failure):",
		"[0]:",
		"  time      : 2025-07-29_17:40:22",
		"  host      : dsw95381-5f7b687f66-w5sjz",
		"  rank      : 0 (local_rank: 0)",
		"  exitcode  : 1 (pid: 87930)",
		"  error_file: <N/A>",
	}
	for _, lead := range []string{"", "2024-05-01T10:00:00.123456Z ", "2024-05-01T10:00:00.123456789Z stdout F ", "[2024-05-01 10:00:00,123] "} {
		var b strings.Builder
		for _, l := range block {
			b.WriteString(lead + l + "\n")
		}
		r := diagnoseBytes(t, "root.log", []byte(b.String()), 0)
		if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Processes, []string{"dsw95381-5f7b687f66-w5sjz:87930"}) {
			t.Errorf("lead %q: want dsw95381-5f7b687f66-w5sjz:87930 first:\n%s", lead, js(r))
		}
	}
}

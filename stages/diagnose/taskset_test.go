package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// srunSets is srun's word on a job whose tasks ended a node at a time: each line a set of
// tasks that ended on one node, in no order among them.
const srunSets = "srun: error: node-c-0: tasks 2-7: Exited with exit code 1\n" +
	"srun: error: node-c-1: tasks 8-13,15: Exited with exit code 1\n" +
	"srun: error: node-c-1: task 14: Exited with exit code 1\n"

// TestTaskRangesAreSets: a range of tasks srun prints on one line is a set, not an order:
// its lowest task is not the first to fail. With no other evidence the finding names the
// tasks and nodes that exited and blames none; with an NCCL error the tasks share, that
// error is the first fault and the exits (every task of the ranges) follow it.
func TestTaskRangesAreSets(t *testing.T) {
	if !failureLinesRead(t) {
		t.Skip("the parser does not read launcher lines yet")
	}
	want := []int64{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	r := diagnoseBytes(t, "job.log", []byte(srunSets), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) != 1 {
		t.Fatalf("exits alone: status %s, want one finding:\n%s", r.Status, js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindProcessExit || !f.Shared || !slices.Equal(f.Ranks, want) || len(f.Hosts) != 2 ||
		!strings.HasPrefix(f.Summary, "tasks 2-15 on 2 nodes exited with exit code 1") {
		t.Errorf("exits alone: %s shared %v ranks %v hosts %v: %s", f.Kind, f.Shared, f.Ranks, f.Hosts, f.Summary)
	}

	nccl := "RuntimeError: NCCL error in: /opt/torch/c10d/NCCLUtils.hpp:82, invalid argument, NCCL version 2.4.8\n"
	r = diagnoseBytes(t, "job.log", []byte(nccl+srunSets), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) != 2 {
		t.Fatalf("with the NCCL error: status %s, want two findings:\n%s", r.Status, js(r))
	}
	if f := r.Findings[0]; f.Kind != diagnose.KindInvalidUsage {
		t.Errorf("with the NCCL error: first finding %s, want invalid-usage: %s", f.Kind, f.Summary)
	}
	if f := r.Findings[1]; f.Kind != diagnose.KindProcessExit || f.Follows == nil || *f.Follows != 0 || !slices.Equal(f.Ranks, want) {
		t.Errorf("with the NCCL error: exits %s follows %v ranks %v, want process-exit of %v after the error: %s", f.Kind, f.Follows, f.Ranks, want, f.Summary)
	}
}

// TestSingleTaskLinesKeepOrder: where srun's first line names one task, it is the task that
// ended first, as before; the later lines' ranges follow it, every task of them named.
func TestSingleTaskLinesKeepOrder(t *testing.T) {
	if !failureLinesRead(t) {
		t.Skip("the parser does not read launcher lines yet")
	}
	lines := "srun: error: node-c-1: task 9: Exited with exit code 1\n" + srunSets
	r := diagnoseBytes(t, "job.log", []byte(lines), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) != 2 {
		t.Fatalf("status %s, want two findings:\n%s", r.Status, js(r))
	}
	if f := r.Findings[0]; f.Kind != diagnose.KindProcessExit || !slices.Equal(f.Ranks, []int64{9}) || f.Shared {
		t.Errorf("first finding %s ranks %v shared %v, want task 9's exit: %s", f.Kind, f.Ranks, f.Shared, f.Summary)
	}
	if f := r.Findings[1]; !slices.Equal(f.Ranks, []int64{2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15}) {
		t.Errorf("the exits after it: ranks %v: %s", f.Ranks, f.Summary)
	}
}

// TestRootCauseNamesRank: torchrun's root-cause block names the rank (`rank : 3 (local_rank:
// 3)`) beside host and pid: the finding names it too where no NCCL line ties that process to
// a rank.
func TestRootCauseNamesRank(t *testing.T) {
	if !failureLinesRead(t) {
		t.Skip("the parser does not read launcher lines yet")
	}
	block := "Root Cause (first observed failure):\n[0]:\n" +
		"  time      : 2025-03-04_05:06:07\n  host      : node-x\n  rank      : 3 (local_rank: 3)\n" +
		"  exitcode  : 1 (pid: 4242)\n  error_file: <N/A>\n"
	r := diagnoseBytes(t, "job.log", []byte(block), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindProcessExit || !slices.Equal(f.Ranks, []int64{3}) || !slices.Equal(f.Processes, []string{"node-x:4242"}) ||
		!strings.HasPrefix(f.Summary, "rank 3 (node-x:4242) exited first") {
		t.Errorf("first finding %s ranks %v of %v, want rank 3's exit on node-x:4242: %s", f.Kind, f.Ranks, f.Processes, f.Summary)
	}
}

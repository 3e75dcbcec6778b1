package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// mpiBanner is Open MPI's notice that a process exited non-zero, without the block that
// names it (a paste that stops there).
const mpiBanner = "--------------------------------------------------------------------------\n" +
	"Primary job  terminated normally, but 1 process returned\n" +
	"a non-zero exit code. Per user-direction, the job has been aborted.\n" +
	"--------------------------------------------------------------------------\n"

// TestMPIExitUnnamed: Open MPI's notice alone proves the job failed though it names no
// process: a process-exit finding that blames none. Where a process's own error is in the
// log, that is the first fault and the notice follows from it.
func TestMPIExitUnnamed(t *testing.T) {
	data, ps := warnJob(t)
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), mpiBanner...), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("the notice alone: status %s, want fault:\n%s", r.Status, js(r))
	}
	if f := r.Findings[0]; f.Kind != diagnose.KindProcessExit || len(f.Processes) != 0 || !strings.Contains(f.Summary, "does not say which") {
		t.Errorf("the notice alone: first finding %s of %v, want a process-exit of no process: %s", f.Kind, f.Processes, f.Summary)
	}
	p := ps[3]
	lines := chain(p, "transport/nvls.cc:157", "Cuda failure 1 'invalid argument'", 1, "transport/nvls.cc:328", "init.cc:1236") + mpiBanner
	r = diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
	if len(r.Findings) < 2 || r.Findings[0].Kind != diagnose.KindCudaError || !slices.Equal(r.Findings[0].Processes, []string{p.name()}) {
		t.Fatalf("a CUDA error then the notice: want a cuda-error of %s first:\n%s", p.name(), js(r))
	}
	if !slices.ContainsFunc(r.Findings[1:], func(f diagnose.Finding) bool {
		return f.Kind == diagnose.KindProcessExit && f.Follows != nil && *f.Follows == 0
	}) {
		t.Errorf("a CUDA error then the notice: want the exit to follow the first fault:\n%s", js(r))
	}
}

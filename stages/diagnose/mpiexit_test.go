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

// TestMPIExitLoneProcess: mpirun names the first process to exit by its rank alone, and the
// NCCL lines show one process whose rank no line gives, with an error of its own (nccl-tests'
// `Test failure`): the exit is that process's. Where its rank is another, or the lines show
// a second process, the launcher's rank stays unjoined.
func TestMPIExitLoneProcess(t *testing.T) {
	named := "  Process name: [[25545,1],0]\n  Exit code:    3\n" + strings.Repeat("-", 74) + "\n"
	block := strings.Repeat("-", 74) + "\nmpirun detected that one or more processes exited with non-zero status, thus causing\n" +
		"the job to be terminated. The first process to do so was:\n\n" + named
	own := " .. 8h200-2 pid 6831: Test failure common.cu:893\n\n" +
		"8h200-2:6831:6848 [0] nccl_net_ofi_closeSend:816 NCCL WARN NET/OFI Invalid communicator object provided\n" +
		"8h200-2:6831:6848 [0] NCCL INFO transport/net.cc:985 -> 3\n"
	r := diagnoseBytes(t, "job.log", []byte(own+mpiBanner+block), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindProcessExit ||
		!slices.Equal(r.Findings[0].Processes, []string{"8h200-2:6831"}) ||
		!strings.HasPrefix(r.Findings[0].Summary, "8h200-2:6831 exited first, as the launcher reports, after Test failure common.cu:893;") {
		t.Errorf("the lone process: want its process-exit first:\n%s", js(r))
	}
	other := "8h200-3:6310:6310 [0] NCCL INFO comm 0x55 rank 1 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
	ranked := "8h200-2:6831:6831 [0] NCCL INFO comm 0x56 rank 1 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
	for name, log := range map[string]string{"second process": other + own + mpiBanner + block, "another rank": ranked + own + mpiBanner + block} {
		r := diagnoseBytes(t, "job.log", []byte(log), 0)
		if len(r.Findings) > 0 && r.Findings[0].Kind == diagnose.KindProcessExit && slices.Contains(r.Findings[0].Processes, "8h200-2:6831") {
			t.Errorf("%s: the exit of rank 0 joined to 8h200-2:6831:\n%s", name, js(r))
		}
	}
}

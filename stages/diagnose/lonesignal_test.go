package diagnose_test

import (
	"slices"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestLoneSignal: a signal or terminate a process printed without NCCL's envelope (Python's
// `Fatal Python error: Segmentation fault`, a C++ terminate) is the process's whose NCCL
// lines are the log's only ones, as an exception is; with two processes it names none.
func TestLoneSignal(t *testing.T) {
	const (
		a     = "ubuntu:191:25036 [5] NCCL INFO comm 0x55b6d0b44010 rank 5 nranks 16 cudaDev 5 busId ae000 commId 0x893042912752bf22 - Init COMPLETE\n"
		b     = "ubuntu:192:25040 [6] NCCL INFO comm 0x55b6d0b44020 rank 6 nranks 16 cudaDev 6 busId af000 commId 0x893042912752bf22 - Init COMPLETE\n"
		segv  = "Fatal Python error: Segmentation fault\n"
		abort = "terminate called after throwing an instance of 'std::runtime_error'\n  what():  boom\n"
	)
	for _, tail := range []string{segv, abort} {
		r := diagnoseBytes(t, "job.log", []byte(a+tail), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindCrash || !slices.Equal(r.Findings[0].Processes, []string{"ubuntu:191"}) {
			t.Errorf("%q after one process's lines: want its crash:\n%s", tail, js(r))
		}
		r = diagnoseBytes(t, "job.log", []byte(a+b+tail), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings[0].Processes) != 0 {
			t.Errorf("%q after two processes' lines: want a crash of no process:\n%s", tail, js(r))
		}
	}
}

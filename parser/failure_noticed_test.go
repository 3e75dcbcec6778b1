package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNoticedLines: Open MPI's and PRRTE's launcher on a process a signal killed, in each
// tool's word and with the signal's name left out, read to the rank, PID, node and signal.
func TestNoticedLines(t *testing.T) {
	cases := []struct {
		line string
		want *Failure
	}{
		{"mpirun noticed that process rank 3 with PID 1167 on node 10.10.21.2 exited on signal 11 (Segmentation fault).", fail(func(f *Failure) {
			f.Event, f.Task, f.TaskLast, f.Pid, f.Host, f.Signal = FailureMPIProcess, 3, 3, 1167, "10.10.21.2", "signal 11 (Segmentation fault)"
			f.Text = "mpirun noticed that process rank 3 with PID 1167 on node 10.10.21.2 exited on signal 11 (Segmentation fault)"
		})},
		// Open MPI prints PID 0 where it never learnt the process's: no PID.
		{"prterun noticed that process rank 0 with PID 0 on node gpu-a7 exited on signal 9.", fail(func(f *Failure) {
			f.Event, f.Task, f.TaskLast, f.Host, f.Signal = FailureMPIProcess, 0, 0, "gpu-a7", "signal 9"
			f.Text = "prterun noticed that process rank 0 with PID 0 on node gpu-a7 exited on signal 9"
		})},
		{"mpiexec noticed that job rank 12 with PID 4242 on node n-2 exited on signal 6 (Aborted).", fail(func(f *Failure) {
			f.Event, f.Task, f.TaskLast, f.Pid, f.Host, f.Signal = FailureMPIProcess, 12, 12, 4242, "n-2", "signal 6 (Aborted)"
			f.Text = "mpiexec noticed that process rank 12 with PID 4242 on node n-2 exited on signal 6 (Aborted)"
		})},
	}
	p, _ := NewParser()
	for _, c := range cases {
		got := p.Grammar().Parse([]byte(c.line))
		want := Line{Kind: KindFailure, Rank: -1, Fail: c.want}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%q (-want +got):\n%s", c.line, d)
		}
		checkAgreement(t, p, []byte(c.line))
	}
}

// TestOpRequiresLines: TensorFlow's `OP_REQUIRES failed at <file>:<line> : <status>` on an
// NCCL op, after TF's log head and a collector's time, is that process's ncclResult; another
// op's failure, or an NCCL op's status that names no ncclResult, is not read as one.
func TestOpRequiresLines(t *testing.T) {
	p, _ := NewParser()
	for _, c := range []struct {
		line, name, text string
		result           NCCLResult
	}{
		{"2023-05-02 10:11:12.123456: W tensorflow/core/framework/op_kernel.cc:1830] OP_REQUIRES failed at nccl_ops.cc:104 : UNKNOWN: unhandled cuda error",
			"OP_REQUIRES failed at nccl_ops.cc:104", "UNKNOWN: unhandled cuda error", ResultUnhandledCuda},
		{"2021/01/02 03:04:05 2021-01-02 03:04:05.000001: W tensorflow/core/framework/op_kernel.cc:1651] OP_REQUIRES failed at nccl_create.cc:112 : Internal: unhandled system error",
			"OP_REQUIRES failed at nccl_create.cc:112", "Internal: unhandled system error", ResultSystem},
		{"W0102 03:04:05.000001 12 op_kernel.cc:1830] OP_REQUIRES failed at collective_ops.cc:40 : INTERNAL: NCCL: internal error",
			"OP_REQUIRES failed at collective_ops.cc:40", "INTERNAL: NCCL: internal error", ResultInternal},
	} {
		l := p.Grammar().Parse([]byte(c.line))
		if l.Kind != KindFailure || l.Fail == nil || l.Fail.Event != FailureException || l.Fail.Exception != c.name || l.Fail.Text != c.text || l.Fail.Result != c.result {
			t.Errorf("%q: read as %v %+v", c.line, l.Kind, l.Fail)
		}
		checkAgreement(t, p, []byte(c.line))
	}
	for _, line := range []string{
		"2023-05-02 10:11:12.123456: W tensorflow/core/framework/op_kernel.cc:1830] OP_REQUIRES failed at conv_ops.cc:1068 : Resource exhausted: OOM when allocating tensor",
		"2023-05-02 10:11:12.123456: W tensorflow/core/framework/op_kernel.cc:1830] OP_REQUIRES failed at nccl_ops.cc:104 : Cancelled: step was cancelled",
		"OP_REQUIRES failed at cast_op.cc:12 : Internal: unhandled system error",
	} {
		if l := p.Grammar().Parse([]byte(line)); l.Kind == KindFailure {
			t.Errorf("%q: read as failure %+v", line, l.Fail)
		}
		checkAgreement(t, p, []byte(line))
	}
}

// TestNCCLFailureWhat: the what() of an NCCLCHECK that throws, `NCCL failure: unhandled
// cuda error in <file> at line: N rank: R`, names its ncclResult and rank.
func TestNCCLFailureWhat(t *testing.T) {
	p, _ := NewParser()
	line := "  what():  NCCL failure: unhandled cuda error in allreduce_mpi.cu at line: 86 rank: 1"
	l := p.Grammar().Parse([]byte(line))
	if l.Fail == nil || l.Fail.Event != FailureTerminate || l.Fail.Result != ResultUnhandledCuda || l.Fail.Task != 1 {
		t.Errorf("%q: read as %v %+v", line, l.Kind, l.Fail)
	}
	checkAgreement(t, p, []byte(line))
}

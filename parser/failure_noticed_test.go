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

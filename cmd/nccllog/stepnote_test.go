package main

import (
	"testing"
)

// TestStepsSelectedNothing: split and calls with a --steps that selects nothing say why on
// stderr in one line, exit 0: the input has no progress line, or none of a step in the
// range (naming the steps it has). A range that selects a step says nothing.
func TestStepsSelectedNothing(t *testing.T) {
	const call = "gpu0:1:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count 64 datatype 7 op 0 root 0 comm 0x55 [nranks=2] stream 0x7\n"
	const noProgress = "nccllog: note: --steps 45-50 selected nothing: the input has no progress line " +
		`(NeMo "Training epoch E, iteration N/M", Megatron-LM "iteration N/ M" or torchtitan "step: N")` + "\n"
	cases := []struct {
		what, stdin string
		args        []string
		stderr      string
	}{
		{"no progress line", call, []string{"--steps", "45-50", "-"}, noProgress},
		{"no step in range", "", []string{"--steps", "45-50", sampleLog}, "nccllog: note: --steps 45-50 selected nothing: the input's progress lines are of steps 0-25\n"},
		{"one step, out of range", "", []string{"--steps", "30", sampleLog}, "nccllog: note: --steps 30 selected nothing: the input's progress lines are of steps 0-25\n"},
		{"a step in range", "", []string{"--steps", "7", sampleLog}, ""},
		{"no --steps", call, []string{"-"}, ""},
	}
	for _, cmd := range [][]string{{"split"}, {"calls"}, {"calls", "--format", "csv"}} {
		for _, c := range cases {
			_, stderr, code := runCLI(t, c.stdin, append(append([]string{}, cmd...), c.args...)...)
			if code != exitOK || stderr != c.stderr {
				t.Errorf("%v %s: exit %d, stderr %q; want exit 0, stderr %q", cmd, c.what, code, stderr, c.stderr)
			}
		}
	}
}

package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// agentExitLines are torchrun's elastic agent line on its first failed child in its three
// heads (glog, Python logging's default, the bracketed time of older releases) and bare.
var agentExitLines = []string{
	"E1106 04:43:02.651000 26021 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -6) local_rank: 3 (pid: 26026) of binary: /usr/bin/python",
	"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 3 (pid: 26026) of binary: /usr/bin/python",
	"[2024-01-01 10:00:00,000] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -6) local_rank: 3 (pid: 26026) of binary: /usr/bin/python",
	"failed (exitcode: -6) local_rank: 3 (pid: 26026) of binary: /usr/bin/python",
}

// TestAgentExitLines: each form reads as the agent's word on local rank 3, pid 26026, exit
// code -6 (SIGABRT), in the grammar and the scanner alike.
func TestAgentExitLines(t *testing.T) {
	p, _ := NewParser()
	want := fail(func(f *Failure) {
		f.Event, f.LocalRank, f.Pid, f.ExitCode, f.HasExit, f.Signal = FailureAgentExit, 3, 26026, -6, true, "SIGABRT"
	})
	for _, line := range agentExitLines {
		got := p.Grammar().Parse([]byte(line))
		if got.Kind != KindFailure || !cmp.Equal(want, got.Fail) {
			t.Errorf("%q: kind %v (-want +got):\n%s", line, got.Kind, cmp.Diff(want, got.Fail))
		}
		checkAgreement(t, p, []byte(line))
	}
	// An exit code that is no signal names none.
	l := p.Grammar().Parse([]byte("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 9238) of binary: /usr/bin/python3"))
	if l.Kind != KindFailure || l.Fail.ExitCode != 1 || l.Fail.Signal != "" || l.Fail.LocalRank != 0 || l.Fail.Pid != 9238 {
		t.Errorf("exit code 1: %+v %+v", l, l.Fail)
	}
}

// TestAgentExitNearMisses: text in the agent line's shape that is not it stays other.
func TestAgentExitNearMisses(t *testing.T) {
	p, _ := NewParser()
	for _, line := range []string{
		"failed (exitcode: x) local_rank: 3 (pid: 26026)",
		"ERROR:some.other.logger:failed (exitcode: -6) local_rank: 3 (pid: 26026) of binary: /usr/bin/python",
		"the job failed (exitcode: -6) local_rank: 3 (pid: 26026)",
		"failed (exitcode: -6) rank: 3 (pid: 26026)",
		"26021 api.py:869] failed to start (exitcode: 1)",
	} {
		if l := p.Grammar().Parse([]byte(line)); l.Kind != KindOther {
			t.Errorf("%q reads as %v, want other", line, l.Kind)
		}
		checkAgreement(t, p, []byte(line))
	}
}

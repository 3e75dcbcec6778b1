package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// agentLine is torchrun's elastic agent on its first failed child, glog form.
const agentLine = "E0304 05:06:07.000000 4200 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -6) local_rank: 2 (pid: 4242) of binary: /usr/bin/python3"

// TestAgentExitFirst: the agent's line alone names the child that failed first by its local
// rank and pid (not a global rank), with the signal its exit code stands for.
func TestAgentExitFirst(t *testing.T) {
	lines := []string{
		"W0304 05:06:06.900000 4200 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] Sending process 4241 closing signal SIGTERM",
		agentLine,
		"Traceback (most recent call last):",
	}
	r := diagnoseBytes(t, "agent.log", []byte(strings.Join(lines, "\n")+"\n"), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("status %s (%s), want fault:\n%s", r.Status, r.Reason, js(r))
	}
	f := r.Findings[0]
	want := "local rank 2 (pid 4242) exited first with exit code -6 (SIGABRT)"
	if f.Kind != diagnose.KindProcessExit || len(f.Ranks) != 0 || !strings.HasPrefix(f.Summary, want) || f.Evidence[0].Line != 2 {
		t.Errorf("first finding %s ranks %v: %q, want process-exit without ranks: %q...\n%s", f.Kind, f.Ranks, f.Summary, want, js(r))
	}
}

// TestAgentExitWithRootCause: where torchrun's root cause block names the same child, the
// block (global rank and host) names the finding and the agent's line is its evidence: one
// finding, not two.
func TestAgentExitWithRootCause(t *testing.T) {
	block := agentLine + "\nRoot Cause (first observed failure):\n[0]:\n" +
		"  time      : 2025-03-04_05:06:07\n  host      : node-x\n  rank      : 10 (local_rank: 2)\n" +
		"  exitcode  : -6 (pid: 4242)\n  error_file: <N/A>\n"
	r := diagnoseBytes(t, "job.log", []byte(block), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) != 1 {
		t.Fatalf("status %s, want one fault finding:\n%s", r.Status, js(r))
	}
	f := r.Findings[0]
	if !slices.Equal(f.Ranks, []int64{10}) || !strings.HasPrefix(f.Summary, "rank 10 (node-x:4242) exited first with exit code -6") ||
		!slices.ContainsFunc(f.Evidence, func(e diagnose.Ref) bool { return e.Line == 1 }) {
		t.Errorf("first finding ranks %v: %s, want rank 10 with the agent's line as evidence:\n%s", f.Ranks, f.Summary, js(r))
	}
}

// TestAgentExitOneHost: the agent's line names no host; where the log's processes are all on
// one host, its child is on that host too. Where they are on two, the child names none.
func TestAgentExitOneHost(t *testing.T) {
	closed := func(host string) string {
		return host + ":4241:4300 [1] misc/socket.cc:538 NCCL WARN Net : Connection closed by remote peer " + host + "<40048>\n" +
			host + ":4241:4300 [1] NCCL INFO transport/net_socket.cc:493 -> 6\n"
	}
	for name, c := range map[string]struct {
		log   string
		hosts []string
	}{
		"one host":  {closed("node-a") + agentLine + "\n", []string{"node-a"}},
		"two hosts": {closed("node-a") + strings.ReplaceAll(closed("node-b"), ":4241:", ":4243:") + agentLine + "\n", nil},
	} {
		r := diagnoseBytes(t, "job.log", []byte(c.log), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindProcessExit ||
			!slices.Equal(r.Findings[0].Processes, []string{"local rank 2 (pid 4242)"}) || !slices.Equal(r.Findings[0].Hosts, c.hosts) {
			t.Errorf("%s: want local rank 2's exit first, on hosts %v:\n%s", name, c.hosts, js(r))
		}
	}
}

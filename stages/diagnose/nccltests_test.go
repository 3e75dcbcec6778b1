package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// testFailure is what nccl-tests prints where a call of process p failed: the result with
// its host (cut at the first dot), then a line for each caller the error returns through.
func testFailure(p jobProc, what, msg string, levels int) string {
	host, _, _ := strings.Cut(p.host, ".")
	s := fmt.Sprintf("%s: Test %s failure common.cu:961 '%s'\n", host, what, msg)
	for i := range levels {
		s += fmt.Sprintf(" .. %s pid %d: Test failure common.cu:%d\n", host, p.pid, 844+100*i)
	}
	return s
}

// TestNCCLTestsFailure: nccl-tests' failure lines are the failing process's own result,
// whatever NCCL printed before them: the first fault, on the process the trail line names,
// of the kind the result names; its chain without a WARN (NCCL has return paths that print
// none) is its evidence. The trail lines are not findings of their own. A trail line whose
// result line the paste does not hold still names a failed process. Lines that only look like
// them (another program's, a sentence quoting one) are not read.
func TestNCCLTestsFailure(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[6]
	bare := frameAt(p, 7100, "transport/net_ib.cc:282", 2) + frameAt(p, 7100, "transport/net.cc:687", 2) +
		frameAt(p, 7101, "init.cc:1548", 2) + frameAt(p, 7101, "group.cc:64", 2)
	for _, c := range []struct {
		name, lines string
		kind        diagnose.Kind
		frame       bool
	}{
		{"system", bare + testFailure(p, "NCCL", "unhandled system error (run with NCCL_DEBUG=INFO for details) / ", 2), diagnose.KindSystemError, true},
		{"system-no-chain", testFailure(p, "NCCL", "unhandled system error", 1), diagnose.KindSystemError, false},
		{"cuda", testFailure(p, "CUDA", "named symbol not found", 3), diagnose.KindCudaError, false},
		{"oom", testFailure(p, "CUDA", "out of memory", 1), diagnose.KindOOM, false},
		{"trail-only", fmt.Sprintf(" .. %s pid %d: Test failure common.cu:1244\n", p.host, p.pid), diagnose.KindCrash, false},
	} {
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), c.lines...), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Errorf("%s: status %s, want fault:\n%s", c.name, r.Status, js(r))
			continue
		}
		f := r.Findings[0]
		if f.Kind != c.kind || !slices.Equal(f.Processes, []string{p.name()}) {
			t.Errorf("%s: first finding %s of %v, want %s of %s:\n%s", c.name, f.Kind, f.Processes, c.kind, p.name(), js(r))
		}
		hasFrame := slices.ContainsFunc(f.Evidence, func(e diagnose.Ref) bool { return strings.Contains(e.Text, "net_ib.cc:282") })
		if hasFrame != c.frame {
			t.Errorf("%s: the chain's first frame in the evidence: %v, want %v:\n%s", c.name, hasFrame, c.frame, js(r))
		}
		for _, g := range r.Findings {
			for _, e := range g.Evidence {
				if strings.Contains(e.Text, "Test failure") && c.name != "trail-only" {
					t.Errorf("%s: a trail line is evidence: %q", c.name, e.Text)
				}
			}
		}
	}
	for _, near := range []string{
		fmt.Sprintf("%s: Test NCCL failure in the second run, see 'notes'\n", p.host),
		"I got Test NCCL failure common.cu:961 'unhandled system error' on one node\n",
		fmt.Sprintf(" .. %s pid x12: Test failure common.cu:844\n", p.host),
		fmt.Sprintf(" .. %s pid 12: Test failure common.cu\n", p.host),
	} {
		if r := diagnoseBytes(t, "job.log", append(slices.Clone(data), near...), 0); r.Status != diagnose.StatusHealthy {
			t.Errorf("%q: status %s, want healthy:\n%s", near, r.Status, js(r))
		}
	}
}

// TestNCCLTestsTwoProcesses: two processes of one host fail together, their lines
// interleaved; each result line gets the process of the first trail line below it.
func TestNCCLTestsTwoProcesses(t *testing.T) {
	data, ps := warnJob(t)
	p, q := ps[0], ps[1] // one host, 4 ranks a host
	if p.host != q.host {
		t.Fatalf("ranks 0 and 1 on %s and %s, want one host", p.host, q.host)
	}
	lines := fmt.Sprintf("%s: Test NCCL failure common.cu:961 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '\n", p.host) +
		fmt.Sprintf("%s: Test NCCL failure common.cu:961 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '\n", p.host) +
		fmt.Sprintf(" .. %s pid %d: Test failure common.cu:844\n .. %s pid %d: Test failure common.cu:844\n", p.host, p.pid, q.host, q.pid)
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
	var procs []string
	for _, f := range r.Findings {
		procs = append(procs, f.Processes...)
	}
	slices.Sort(procs)
	want := []string{p.name(), q.name()}
	slices.Sort(want)
	if r.Status != diagnose.StatusFault || !slices.Equal(slices.Compact(procs), want) {
		t.Errorf("findings of %v, want %v:\n%s", procs, want, js(r))
	}
}

// TestSrunLabelledRareLines: behind `srun -l`'s `3: ` label, nccl-tests' trail line still
// names the process, and the heartbeat monitor's line is still read.
func TestSrunLabelledRareLines(t *testing.T) {
	tests := "3: node1: Test NCCL failure common.cu:961 'unhandled system error (run with NCCL_DEBUG=INFO for details)'\n" +
		"3:  .. node1 pid 11537: Test failure common.cu:844\n"
	r := diagnoseBytes(t, "job.log", []byte(tests), 0)
	if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Processes, []string{"node1:11537"}) {
		t.Errorf("nccl-tests behind srun's label: want node1:11537 first:\n%s", js(r))
	}
	stuck := "0: [rank0]:[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives.\n"
	r = diagnoseBytes(t, "job.log", []byte(stuck), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindWatchdogTimeout || !slices.Equal(r.Findings[0].Ranks, []int64{0}) {
		t.Errorf("the heartbeat monitor behind srun's label: want rank 0's stuck watchdog:\n%s", js(r))
	}
}

// TestNCCLTestsOldForm: nccl-tests 1.x print `NCCL failure all_reduce.cu:95 'unhandled cuda
// error'`, with no host and no `Test`: the process's own CUDA error, cited as printed.
func TestNCCLTestsOldForm(t *testing.T) {
	r := diagnoseBytes(t, "job.log", []byte("NCCL failure all_reduce.cu:95 'unhandled cuda error'\n"), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || f[0].Kind != diagnose.KindCudaError || f[0].Evidence[0].Text != "NCCL failure all_reduce.cu:95 'unhandled cuda error'" {
		t.Errorf("want a cuda-error citing the line as printed:\n%s", js(r))
	}
	quietIn(t, "NCCL failure modes are listed in 'troubleshooting'\n")
}

// TestNCCLTestsSharedResult: every process of an nccl-tests run printing the same failed
// result is a cause they share, whichever process mpirun names first (its exit follows); two
// processes with different results stay apart.
func TestNCCLTestsSharedResult(t *testing.T) {
	data, ps := warnJob(t)
	const cuda = "unhandled cuda error (run with NCCL_DEBUG=INFO for details) / "
	var all string
	for r := range len(ps) {
		all += testFailure(ps[r], "NCCL", cuda, 2)
	}
	mpirun := fmt.Sprintf("mpirun detected that one or more processes exited with non-zero status, thus causing\n"+
		"the job to be terminated. The first process to do so was:\n\n  Process name: [[4012,1],%d]\n  Exit code:    1\n", ps[5].rank)
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), all+mpirun...), 0)
	if r.Status != diagnose.StatusFault || !r.Findings[0].Shared || r.Findings[0].Kind != diagnose.KindCudaError ||
		!strings.Contains(r.Findings[0].Summary, "Test NCCL failure common.cu:961") ||
		!strings.Contains(r.Findings[0].Summary, "the code they all run") {
		t.Errorf("every process's same result: want a shared cuda-error first:\n%s", js(r))
	}
	two := testFailure(ps[1], "NCCL", cuda, 1) + testFailure(ps[6], "CUDA", "an illegal memory access was encountered", 1)
	r = diagnoseBytes(t, "job.log", append(slices.Clone(data), two...), 0)
	for _, f := range r.Findings {
		if f.Shared {
			t.Errorf("two different results are shared: %s", f.Summary)
		}
	}
}

// TestNCCLTestsEchoAfterCause: one process's result line only repeats its call's result
// ('unhandled cuda error'); another process's WARN names a CUDA failure. Without time to
// order them, the WARN's process is the first fault, whichever line the paste shows first;
// the result line stays a finding of its own.
func TestNCCLTestsEchoAfterCause(t *testing.T) {
	data, ps := warnJob(t)
	echo := testFailure(ps[1], "NCCL", "unhandled cuda error (run with NCCL_DEBUG=INFO for details) / ", 1)
	cause := warnAt(ps[6], 7200, "enqueue.cc:1672", "Cuda failure 'unspecified launch failure'")
	for name, lines := range map[string]string{"echo first": echo + cause, "cause first": cause + echo} {
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) < 2 || r.Findings[0].Kind != diagnose.KindCudaError ||
			!slices.Equal(r.Findings[0].Processes, []string{ps[6].name()}) {
			t.Errorf("%s: want %s's CUDA WARN first, then %s's result:\n%s", name, ps[6].name(), ps[1].name(), js(r))
		}
	}
}

package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestTerminateWhat: libstdc++ prints an uncaught exception's type and its what() on two
// lines; the finding says what was thrown (the what()'s message, of the kind its ncclResult
// names), once, for each of two processes whose lines interleave, whatever the chunking.
// Before, the head made a finding of its own, "a process failed first: " with nothing after
// it, and came first.
func TestTerminateWhat(t *testing.T) {
	const head = "terminate called after throwing an instance of 'std::runtime_error'\n"
	what := func(rank string) string {
		return "  what():  NCCL failure: unhandled cuda error in all_reduce.cu at line: 86 rank: " + rank + "\n"
	}
	for _, c := range []struct{ name, log, first string }{
		{"two lines", "# of floats    bytes\n" + head + what("0"),
			"rank 0 hit a CUDA error first: NCCL failure: unhandled cuda error in all_reduce.cu at line: 86 rank: 0"},
		{"two processes interleaved", head + head + what("0") + "\n" + what("1"),
			"rank 0 hit a CUDA error first: NCCL failure: unhandled cuda error in all_reduce.cu at line: 86 rank: 0"},
		{"a plain message", head + "  what():  vector::_M_range_check\n",
			"a process failed first: vector::_M_range_check"},
	} {
		for _, chunk := range []int{0, 40, 97} {
			r := diagnoseBytes(t, "mpi.log", []byte(c.log), chunk)
			if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
				t.Fatalf("%s, chunk %d: status %s (%s)", c.name, chunk, r.Status, r.Reason)
			}
			if got := r.Findings[0].Summary; got != c.first {
				t.Errorf("%s, chunk %d: first %q, want %q", c.name, chunk, got, c.first)
			}
			for _, f := range r.Findings {
				if strings.HasSuffix(f.Summary, "first: ") {
					t.Errorf("%s, chunk %d: a finding with no message: %q", c.name, chunk, f.Summary)
				}
			}
			checkTexts(t, c.name, r)
		}
	}
}

// TestTerminateWithoutWhat: a terminate whose what() never came (the log ends, or the next
// one is far below) says what was thrown rather than nothing.
func TestTerminateWithoutWhat(t *testing.T) {
	log := "terminate called after throwing an instance of 'std::bad_alloc'\n" + strings.Repeat("step 3 loss 2.1\n", 20) +
		"  what():  std::bad_alloc\n"
	r := diagnoseBytes(t, "job.log", []byte(log), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) < 2 {
		t.Fatalf("status %s (%s), %d findings", r.Status, r.Reason, len(r.Findings))
	}
	want := "a process failed first: terminate called after throwing an instance of 'std::bad_alloc'"
	if got := r.Findings[0].Summary; got != want {
		t.Errorf("first %q, want %q", got, want)
	}
}

package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// unlabelled is a traceback ending in exc, printed without a launcher label.
func unlabelled(exc string) string {
	return "Traceback (most recent call last):\n  File \"train.py\", line 351, in <module>\n    main(args)\n" + exc + "\n"
}

// rootCause is torchrun's block naming rank 0 (pid 87930 on pod-0) first, exit code 1.
const rootCause = "Root Cause (first observed failure):\n[0]:\n  time      : 2025-07-29_17:40:22\n  host      : pod-0\n" +
	"  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 87930)\n  error_file: <N/A>\n"

// TestSameUnlabelledExceptions: where every process printed the same exception without a
// label and torchrun names rank 0 first, that exception is rank 0's last words, and the
// sentence says every rank met it rather than that the others followed rank 0. Different
// exceptions, or only one, are not claimed.
func TestSameUnlabelledExceptions(t *testing.T) {
	const exc = "RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Half"
	log := strings.Repeat(unlabelled(exc), 4) + rootCause
	if f, ok := firstFault(t, log, diagnose.KindProcessExit, 0); ok &&
		(!strings.Contains(f.Summary, "after "+exc) || !strings.Contains(f.Summary, "4 processes printed that exception")) {
		t.Errorf("four alike: %s", f.Summary)
	}
	for name, log := range map[string]string{
		"different": unlabelled(exc) + unlabelled("KeyError: 'labels'") + rootCause,
		"one":       unlabelled(exc) + rootCause,
	} {
		r := diagnoseBytes(t, "job.log", []byte(log), 0)
		if len(r.Findings) == 0 || strings.Contains(r.Findings[0].Summary, "printed that exception") {
			t.Errorf("%s: %s", name, js(r))
		}
	}
}

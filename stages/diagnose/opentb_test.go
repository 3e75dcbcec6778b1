package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestOpenTraceback: a log that ends inside a Python traceback, before its exception's line,
// is unknown and says where the traceback begins, also where a chunk's cut falls inside it;
// the same traceback with its exception line is read as before (not unknown for this).
func TestOpenTraceback(t *testing.T) {
	data, _ := warnJob(t)
	const tb = "Traceback (most recent call last):\n" +
		"  File \"/opt/conda/lib/python3.9/runpy.py\", line 197, in _run_module_as_main\n" +
		"    return _run_code(code, main_globals, None,\n"
	for _, chunk := range []int{0, len(data) + 10} {
		r := diagnoseBytes(t, "job.log", append(append([]byte(nil), data...), tb...), chunk)
		if r.Status != diagnose.StatusUnknown || !strings.Contains(r.Reason, "a Python traceback begins at ") || !strings.Contains(r.Reason, "job.log:") {
			t.Errorf("chunk %d: status %s (%s), want unknown for the open traceback", chunk, r.Status, r.Reason)
		}
	}
	r := diagnoseBytes(t, "job.log", append(append([]byte(nil), data...), tb+"KeyError: 'labels'\n"...), 0)
	if strings.Contains(r.Reason, "traceback") {
		t.Errorf("a traceback with its exception: %s (%s)", r.Status, r.Reason)
	}
}

package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestSignalNamed: a process's own word on the signal that ended it (the shell's `Segmentation
// fault (core dumped)`, a failure handler's `*** SIGBUS received ...`) is a crash said with its
// signal: the line has no message besides the signal, so the finding and its evidence said
// nothing (`a process failed first: `, `Segmentation fault:`).
func TestSignalNamed(t *testing.T) {
	for _, c := range []struct{ line, signal string }{
		{"Segmentation fault (core dumped)", "Segmentation fault"},
		{"Aborted (core dumped)", "Aborted"},
		{"*** SIGBUS received at time=1700000000 on cpu 12 ***", "SIGBUS"},
	} {
		r := diagnoseBytes(t, "sig.log", []byte("trainer step 40 done\n"+c.line+"\n"), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Fatalf("%q: status %s, %d findings", c.line, r.Status, len(r.Findings))
		}
		f := r.Findings[0]
		if want := "a process was killed by a signal first: " + c.signal; f.Kind != diagnose.KindCrash || f.Summary != want {
			t.Errorf("%q: %s %q, want crash %q", c.line, f.Kind, f.Summary, want)
		}
		if got := f.Evidence[0].Text; got != c.signal || strings.HasSuffix(got, ":") {
			t.Errorf("%q: evidence %q, want %q", c.line, got, c.signal)
		}
	}
}

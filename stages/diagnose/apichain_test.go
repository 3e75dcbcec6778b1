package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// chainOnly is a process's return-code chain with no WARN: its async thread's frames, then
// its main thread's (tid main) through group.cc, returning code.
func chainOnly(main, code string) string {
	var b strings.Builder
	for _, f := range []string{"misc/socket.cc:564", "misc/socket.cc:615", "bootstrap.cc:270", "init.cc:1303"} {
		b.WriteString("nd1:500:900 [0] NCCL INFO " + f + " -> " + code + "\n")
	}
	b.WriteString("nd1:500:900 [0] NCCL INFO group.cc:64 -> " + code + " [Async thread]\n")
	b.WriteString("nd1:500:" + main + " [0] NCCL INFO group.cc:422 -> " + code + "\n")
	return b.String()
}

// TestAPIChain: a chain with no WARN that returns an origin's ncclResult through NCCL's API
// on the process's main thread is that process's failed call, where nothing else in the log
// is a fault; the same chain on another thread alone, one that never reaches the API, one of
// ncclRemoteError (another process's fault) or one beside a WARN of another process is not.
func TestAPIChain(t *testing.T) {
	f, ok := firstFault(t, chainOnly("500", "2"), diagnose.KindSystemError)
	if ok && (!strings.HasPrefix(f.Summary, "nd1:500's NCCL call failed first: it returned ncclSystemError (group.cc:422)") ||
		len(f.Evidence) == 0 || f.Evidence[0].Line != 1) {
		t.Errorf("the finding does not say the call failed, from the chain's first frame: %s", js(diagnoseBytes(t, "job.log", []byte(chainOnly("500", "2")), 0)))
	}
	quiet := map[string]string{
		"another thread":  chainOnly("901", "2"),
		"no API frame":    "nd1:500:500 [0] NCCL INFO transport/net_ib.cc:282 -> 2\nnd1:500:500 [0] NCCL INFO transport/net.cc:687 -> 2\n",
		"ncclRemoteError": chainOnly("500", "6"),
	}
	for name, log := range quiet {
		if r := diagnoseBytes(t, name, []byte(log), 0); r.Status == diagnose.StatusFault {
			t.Errorf("%s: a fault:\n%s", name, js(r))
		}
	}
	warn := "nd2:600:600 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer nd3<40318>\n"
	if r := diagnoseBytes(t, "job.log", []byte(warn+chainOnly("500", "2")), 0); len(r.Findings) > 0 &&
		strings.Contains(r.Findings[0].Summary, "NCCL call failed") {
		t.Errorf("beside another process's fault, the chain is not the first fault:\n%s", js(r))
	}
}

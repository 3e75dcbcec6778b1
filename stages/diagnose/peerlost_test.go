package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestPeerLost: a send or receive that failed because the peer went away (Broken pipe, a
// reset) blames the peer's address, as `Connection closed by remote peer` does: where nothing
// else is wrong, the first finding names the address and says the local process follows.
func TestPeerLost(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[3]
	for _, msg := range []string{
		"Net : Call to recv from 10.7.7.7<45001> failed : Broken pipe",
		"Net : Call to send to 10.7.7.7<45001> failed : Connection reset by peer",
	} {
		lines := chain(p, "misc/socket.cc:520", msg, 6, "misc/socket.cc:540", "transport/net_socket.cc:370")
		r := diagnoseBytes(t, "job.log", append(slices.Clone(data), lines...), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Fatalf("%s: status %s, want fault:\n%s", msg, r.Status, js(r))
		}
		f := r.Findings[0]
		if f.Kind != diagnose.KindConnectionClosed || !slices.Contains(f.Hosts, "10.7.7.7") || !strings.Contains(f.Summary, "The peer at 10.7.7.7 went away first") ||
			!strings.Contains(f.Summary, p.name()+") lost its connection") {
			t.Errorf("%s: first finding %s hosts %v: %s", msg, f.Kind, f.Hosts, f.Summary)
		}
	}
}

package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestGlooPeerClosed: gloo's exception on a peer that went away names the peer's address: the
// peer went away first, as NCCL's `Connection closed by remote peer` says; a crash of the
// process that raised it is not the first fault.
func TestGlooPeerClosed(t *testing.T) {
	const exc = "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.31.7.12]:48211\n"
	f, ok := firstFault(t, exc, diagnose.KindConnectionClosed)
	if ok && (!slices.Contains(f.Hosts, "10.31.7.12") || !strings.HasPrefix(f.Summary, "The peer at 10.31.7.12 went away first")) {
		t.Errorf("gloo's peer: %v %q", f.Hosts, f.Summary)
	}
}

package diagnose_test

import (
	"slices"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestLoopbackPeer: where the log shows one process, a connection its peer on the loopback
// closed is that process's own network error (no other process is there to have gone away:
// a one-GPU nccl-tests run over lo); with two processes, the peer on the host went away.
func TestLoopbackPeer(t *testing.T) {
	const (
		a      = "NAME:70918:70918 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>\n"
		b      = "NAME:70919:70919 [1] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>\n"
		closed = "NAME:70918:70927 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer localhost<56086>\n" +
			"NAME:70918:70927 [0] NCCL INFO misc/socket.cc:752 -> 6\n"
	)
	for _, peer := range []string{"localhost", "127.0.0.1"} {
		log := a + closed
		if peer != "localhost" {
			log = a + "NAME:70918:70927 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer 127.0.0.1<56086>\n"
		}
		r := diagnoseBytes(t, "job.log", []byte(log), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError || !slices.Equal(r.Findings[0].Processes, []string{"NAME:70918"}) {
			t.Errorf("%s, one process: want its network error:\n%s", peer, js(r))
		}
	}
	// The process's own head with its host cut off (`NAME :70918`, read as an empty host) is
	// still the one process.
	spaced := "NAME :70918:70918 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>\n"
	r := diagnoseBytes(t, "job.log", []byte(spaced+closed), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError || !slices.Equal(r.Findings[0].Processes, []string{"NAME:70918"}) {
		t.Errorf("a hostless head of the same pid: want the process's network error:\n%s", js(r))
	}
	r = diagnoseBytes(t, "job.log", []byte(a+b+closed), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindConnectionClosed {
		t.Errorf("two processes: want the peer's connection-closed:\n%s", js(r))
	}
}

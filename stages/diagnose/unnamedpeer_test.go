package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestLostUnnamedPeer: WARNs of a connection a peer reset or closed, naming no peer, are all
// a log may show of a fault elsewhere: the processes that printed them lost a peer first. Where
// the log shows an origin, they stay its follow-on errors.
func TestLostUnnamedPeer(t *testing.T) {
	for _, c := range []struct{ name, log, want string }{
		{"reset, 2.3's form", "worker0:15:91 [3] include/socket.h 398 NCCL WARN Call to write failed : Connection reset by peer.\n" +
			"worker0:15:91 [3] transport.cu:153 NCCL WARN transport.cu:153 ->2 [Proxy thread error]\n", "worker0:15 lost its connection to a peer first"},
		{"reset, with its chain", "h1:2:2 [1] misc/socket.cc:50 NCCL WARN socketProgress: Connection reset by peer\nh1:2:2 [1] NCCL INFO misc/socket.cc:752 -> 6\n", "h1:2 lost its connection to a peer first"},
		{"the service thread", "h1:2:2 [1] proxy.cc:1546 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=6, closing connection\n" +
			"h2:3:3 [0] proxy.cc:1546 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=6, closing connection\n", "2 processes lost their connections to peers first"},
	} {
		f, ok := firstFault(t, c.log, diagnose.KindConnectionClosed)
		if ok && !strings.HasPrefix(f.Summary, c.want) {
			t.Errorf("%s: summary %q", c.name, f.Summary)
		}
	}
	// The watchdog's word that it takes its process down, after a reset, follows the reset.
	down := "h1:2:9 [1] include/socket.h:421 NCCL WARN Call to recv failed : Connection reset by peer\n" +
		"h1:2:9 [1] NCCL INFO transport/net_ib.cc:593 -> 2\n" +
		"[E ProcessGroupNCCL.cpp:325] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. To avoid this inconsistency, we are taking the entire process down.\n"
	r := diagnoseBytes(t, "job.log", []byte(down), 0)
	if f := r.Findings; len(f) < 2 || f[0].Kind != diagnose.KindConnectionClosed || f[1].Kind != diagnose.KindWatchdogTimeout || f[1].Follows == nil {
		t.Errorf("a reset, then the watchdog takes the process down: want the reset first:\n%s", js(r))
	}
	// With an origin in the log, the reset follows it.
	log := "h0:1:1 [0] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n" +
		"h1:2:2 [1] misc/socket.cc:50 NCCL WARN socketProgress: Connection reset by peer\n"
	if f, ok := firstFault(t, log, diagnose.KindNetworkError); ok && !slices.Equal(f.Processes, []string{"h0:1"}) {
		t.Errorf("an origin and a reset: first %v", f.Processes)
	}
}

// TestSharedWithoutHosts: a cause every process met, on lines whose heads name no host
// (`:41367:41367 [1]`), says so without an empty host list.
func TestSharedWithoutHosts(t *testing.T) {
	log := "201: :41367:41367 [1] enqueue.cc:422 NCCL WARN Error : no algorithm/protocol available\n" +
		"202: :41368:41368 [2] enqueue.cc:422 NCCL WARN Error : no algorithm/protocol available\n"
	f, ok := firstFault(t, log, diagnose.KindInternalError, 201, 202)
	if ok && (!f.Shared || !strings.HasPrefix(f.Summary, "Every process that logged an error (2 processes) met the same internal error first")) {
		t.Errorf("finding %+v", f)
	}
}

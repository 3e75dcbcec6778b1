package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestC10dSocket: the c10d store's two socket failures, a client that timed out reaching the
// master and a master that could not listen, are the process's own failure to join (glog's
// ERROR line alone, behind Ray's prefix, or with the DistNetworkError that carries it, told
// once), and come before the timeouts they leave behind; the warnings of a rendezvous that
// retries and goes on are no fault.
func TestC10dSocket(t *testing.T) {
	const client = "[E socket.cpp:922] [c10d] The client socket has timed out after 1800s while trying to connect to (10.0.0.5, 29500).\n"
	const clientExc = "Traceback (most recent call last):\n  File \"train.py\", line 10, in <module>\n" +
		"torch.distributed.DistNetworkError: The client socket has timed out after 1800s while trying to connect to (10.0.0.5, 29500).\n"
	const listen = "[E socket.cpp:472] [c10d] The server socket has failed to listen on any local network address.\n"
	const listenExc = "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. " +
		"The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use). The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use).\n"
	const ray = "(RayWorkerVllm pid=207931, ip=10.0.1.75) "
	const dog = "(ActorModelRayActor pid=207260, ip=10.0.1.75) [E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout: " +
		"WorkNCCL(SeqNum=3856, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800268 milliseconds before timing out.\n"
	for _, c := range []struct {
		name, log, says string
		procs           []string
	}{
		{"client", client, "could not reach the rendezvous store (c10d) first", nil},
		{"client and exception", client + clientExc, "could not reach the rendezvous store (c10d) first", nil},
		{"listen and exception", listen + listenExc, "(another job or a leftover process holds the port", nil},
		{"ray worker, then a timeout", ray + client + dog, "10.0.1.75:207931 could not reach the rendezvous store", []string{"10.0.1.75:207931"}},
	} {
		r := diagnoseBytes(t, "job.log", []byte(c.log), 0)
		if f := r.Findings; r.Status != diagnose.StatusFault || len(f) == 0 || f[0].Kind != diagnose.KindInitFailure ||
			!strings.Contains(f[0].Summary, c.says) || len(f) > 1 && f[1].Follows == nil || c.procs != nil && (len(f[0].Processes) != 1 || f[0].Processes[0] != c.procs[0]) {
			t.Errorf("%s: want one init failure that says %q first, the rest under it:\n%s", c.name, c.says, js(r))
		}
	}
	quietIn(t, "[W socket.cpp:663] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address).\n",
		"[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 97 - Address family not supported by protocol).\n",
		"# if you see \"The client socket has timed out after\" the master is unreachable\n")
}

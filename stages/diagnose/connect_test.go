package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// connectLines: h2:922's service thread fails a Connect after its own socket calls failed
// with ncclSystemError (a chain with no WARN), then another process loses its peer.
func connectLines(res string, chainPid string) []string {
	chain := []string{"misc/socket.cc:567", "misc/socket.cc:586", "transport/net_socket.cc:336", "transport/net.cc:592", "proxy.cc:1306"}
	var out []string
	for _, f := range chain {
		out = append(out, "h2:"+chainPid+":1158 [3] NCCL INFO "+f+" -> "+res)
	}
	return append(out,
		"h2:922:1158 [3] proxy.cc:1485 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res="+res+", closing connection",
		"h2:922:1158 [3] proxy.cc:1519 NCCL WARN [Proxy Service 11] Failed to execute operation Connect from rank 11, retcode "+res,
		"h2:920:1149 [1] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer h1.ibnet<53735>",
	)
}

// TestConnectSystemError: a Connect the service thread failed with ncclSystemError, after the
// process's own socket chain, is that process's network error, the first finding, on the rank
// its proxy service names; with res 3
// or 6 (passed on), or after another process's chain, it stays a follow-on.
func TestConnectSystemError(t *testing.T) {
	first := func(lines []string) diagnose.Finding {
		r := diagnoseBytes(t, "connect.log", []byte(strings.Join(lines, "\n")+"\n"), 0)
		if len(r.Findings) == 0 {
			t.Fatalf("no finding: %s (%s)", r.Status, r.Reason)
		}
		return r.Findings[0]
	}
	f := first(connectLines("2", "922"))
	if f.Kind != diagnose.KindNetworkError || !slices.Equal(f.Processes, []string{"h2:922"}) ||
		!strings.Contains(f.Summary, "operation=Connect, res=2") {
		t.Errorf("first finding %s %v: %q, want h2:922's network error", f.Kind, f.Processes, f.Summary)
	}
	// The proxy service names its process's rank, which no other line of this excerpt does.
	if !slices.Equal(f.Ranks, []int64{11}) || !strings.HasPrefix(f.Summary, "rank 11 (h2:922)") {
		t.Errorf("first finding of ranks %v: %q, want rank 11, the proxy service's", f.Ranks, f.Summary)
	}
	for name, lines := range map[string][]string{
		"res 3": connectLines("3", "922"), "res 6": connectLines("6", "922"), "another process's chain": connectLines("2", "921"),
	} {
		if f := first(lines); f.Kind == diagnose.KindNetworkError && slices.Contains(f.Processes, "h2:922") {
			t.Errorf("%s: first finding %s %v: %q, want no origin on h2:922", name, f.Kind, f.Processes, f.Summary)
		}
	}
}

// TestClosedByOwnHost: "Connection closed by remote peer" naming the logging process's own
// host (by its first label: NCCL prints the peer's full name; or that label with an
// interface's, `gpu-a-ib0`) is a peer on that host that ended, not a remote node; another
// host's name stays a remote node's.
func TestClosedByOwnHost(t *testing.T) {
	for _, c := range []struct{ peer, says string }{
		{"gpu-a.cluster.internal<40031>", "Another process on gpu-a went away first: 1 process of that host"},
		{"gpu-b.cluster.internal<40031>", "A process on gpu-b.cluster.internal went away first"},
		{"gpu-a<40031>", "Another process on gpu-a went away first"},
		// The host's address on its fast network, named by its interface.
		{"gpu-a-ib0.cluster.internal<40031>", "Another process on gpu-a went away first"},
		{"gpu-a-hsn1<40031>", "Another process on gpu-a went away first"},
		{"gpu-a-node2.cluster.internal<40031>", "A process on gpu-a-node2.cluster.internal went away first"},
	} {
		log := "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
			"gpu-a:100:200 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer " + c.peer + "\n"
		r := diagnoseBytes(t, "closed.log", []byte(log), 0)
		if len(r.Findings) == 0 || !strings.HasPrefix(r.Findings[0].Summary, c.says) {
			t.Errorf("closed by %s: want %q:\n%s", c.peer, c.says, js(r))
		}
	}
}

// TestClosedPeerByFullName: a peer NCCL names by its full name is the log's host of that
// first label: the finding names gpu-b, as the envelopes do, not a host of its own.
func TestClosedPeerByFullName(t *testing.T) {
	log := "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"gpu-b:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n" +
		"gpu-a:100:300 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer gpu-b.cluster.internal<40318>\n"
	r := diagnoseBytes(t, "closed.log", []byte(log), 0)
	if len(r.Findings) == 0 || !slices.Equal(r.Findings[0].Hosts, []string{"gpu-a", "gpu-b"}) ||
		!strings.Contains(r.Findings[0].Summary, `"Connection closed by remote peer gpu-b.cluster.internal"`) {
		t.Errorf("want the finding on gpu-b, quoting the peer as printed:\n%s", js(r))
	}
}

// TestClosedFollowsFirstOnHost: peers that closed connections to a host follow the first
// finding on that host (the first fault where it is), not a later one of another process
// there (a chain without its WARN printed before it).
func TestClosedFollowsFirstOnHost(t *testing.T) {
	log := "gpu-a:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"gpu-b:300:300 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n" +
		"gpu-a:200:210 [0] NCCL INFO group.cc:406 -> 3\n" +
		"gpu-a:100:110 [1] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n" +
		"gpu-a:100:110 [1] NCCL INFO transport/p2p.cc:200 -> 1\n" +
		"gpu-b:300:310 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer gpu-a.cluster<40001>\n"
	r := diagnoseBytes(t, "closed.log", []byte(log), 0)
	for _, f := range r.Findings {
		if f.Kind == diagnose.KindConnectionClosed && (f.Follows == nil || *f.Follows != 0) {
			t.Errorf("the closed connections follow finding %v, want 0 (the first fault on gpu-a):\n%s", f.Follows, js(r))
		}
	}
	if len(r.Findings) < 3 {
		t.Errorf("want the oom, the chain and the closed connections:\n%s", js(r))
	}
}

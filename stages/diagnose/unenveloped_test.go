package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// strippedChain is a network plugin's WARN and its chain with the envelopes cut off, and the
// exception PyTorch raised after it.
const strippedChain = "get_req_from_imm_data:1411 NCCL WARN NET/OFI Unexpected status (0) for message 246\n" +
	"NCCL INFO transport/net.cc:1302 -> 3\n" +
	"NCCL INFO proxy.cc:698 -> 3\n" +
	"NCCL INFO proxy.cc:878 -> 3 [Progress Thread]\n" +
	"torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3144, internal error - please report this issue to the NCCL developers, NCCL version 2.21.5\n"

// TestUnenvelopedLines: an NCCL WARN and its chain whose envelopes the user cut off are read
// as one unnamed process's: the WARN is the first fault (a network plugin's: a network
// error) and the exception follows it. A line whose envelope is there with a host the parser
// does not read (a redacted host) is the pid's process on that host, and a notice without an
// envelope is no fault.
func TestUnenvelopedLines(t *testing.T) {
	r := diagnoseBytes(t, "job.log", []byte(strippedChain), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) < 2 {
		t.Fatalf("stripped WARN and chain: status %s, want fault with a follower:\n%s", r.Status, js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindNetworkError || len(f.Processes) != 0 || f.Evidence[0].Line != 1 {
		t.Errorf("first finding %s of %v at %v, want the network error of line 1, of no process:\n%s", f.Kind, f.Processes, f.Evidence, js(r))
	}
	if !slices.ContainsFunc(r.Findings[1:], func(g diagnose.Finding) bool { return g.Follows != nil && g.Kind == diagnose.KindRemoteError }) {
		t.Errorf("the exception does not follow the WARN:\n%s", js(r))
	}
	devOnly := "[0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.10.1.3<36138>\n" +
		"[0] NCCL INFO misc/socket.cc:80 -> 6\n" +
		"[0] NCCL INFO group.cc:75 -> 6 [Async thread]\n"
	if r := diagnoseBytes(t, "job.log", []byte(devOnly), 0); r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindConnectionClosed ||
		!strings.Contains(r.Findings[0].Summary, "10.10.1.3") {
		t.Errorf("heads cut to the device: want the peer 10.10.1.3 closing first:\n%s", js(r))
	}
	redacted := "<cluster_name>:922:1158 [3] proxy.cc:1519 NCCL WARN [Proxy Service 11] Failed to execute operation Connect from rank 11, retcode 2\n" +
		"<cluster_name>:922:1158 [3] NCCL INFO proxy.cc:1306 -> 2\n"
	if r := diagnoseBytes(t, "job.log", []byte(redacted), 0); r.Status != diagnose.StatusFault ||
		!slices.Equal(r.Findings[0].Processes, []string{"<cluster_name>:922"}) || !slices.Equal(r.Findings[0].Ranks, []int64{11}) {
		t.Errorf("a redacted envelope: want rank 11 of <cluster_name>:922 first, as printed:\n%s", js(r))
	}
	data, _ := warnJob(t)
	notice := "NCCL WARN NET/Plugin : No plugin found (libnccl-net.so), using internal implementation\n"
	if r := diagnoseBytes(t, "job.log", append(slices.Clone(data), notice...), 0); r.Status != diagnose.StatusHealthy {
		t.Errorf("a notice without its envelope: status %s, want healthy:\n%s", r.Status, js(r))
	}
}

// TestRedactedPeer: a peer whose name the user redacted in brackets is named as printed, and
// a closed connection that names no peer blames none: where the log shows no other fault, the
// process that printed it lost a peer the log does not name (unnamedpeer.go).
func TestRedactedPeer(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[2]
	closed := warnAt(p, 7200, "misc/socket.cc:49", "socketProgress: Connection closed by remote peer <cluster_name>.ibnet<53735>")
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), closed...), 0)
	if r.Status != diagnose.StatusFault || !strings.Contains(r.Findings[0].Summary, "<cluster_name>.ibnet went away") {
		t.Errorf("a redacted peer: want the peer named as printed:\n%s", js(r))
	}
	noPeer := warnAt(p, 7200, "misc/socket.cc:49", "socketProgress: Connection closed by remote peer <53735>")
	r = diagnoseBytes(t, "job.log", append(slices.Clone(data), noPeer...), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindConnectionClosed || r.Findings[0].Peer != "" ||
		!slices.Equal(r.Findings[0].Hosts, []string{p.host}) || !strings.Contains(r.Findings[0].Summary, "lost its connection to a peer first") {
		t.Errorf("a closed connection of no peer: want its process's lost peer, naming no other host:\n%s", js(r))
	}
}

// TestHostlessHeads: a machine whose host name NCCL reads as empty prints `:pid:tid [dev]`
// heads (one colon or more; a launcher may print `-` for the host; at the line's start or
// behind a label or quote the parser does not know):
// the WARN and its chain are the process the pid names, on no named host (a topology-error:
// the graph file names a device the machine lacks); its graph file,
// printed as a setting, explains a channel's missing device. A head whose pid is no number,
// or that is glued to a word, is not one.
func TestHostlessHeads(t *testing.T) {
	const (
		setting = "NCCL INFO NCCL_GRAPH_FILE set by environment to /etc/nccl/graph-8gpu.xml\n"
		warn    = "graph/search.cc:703 NCCL WARN XML Import Channel : dev 3 not found.\n"
		frame   = "NCCL INFO graph/search.cc:733 -> 2\n"
	)
	for name, head := range map[string]string{"one colon": ":4410:4410 [0] ", "two colons": "::4410:4410 [0] ",
		"behind a label": "node-3 >> :4410:4410 [0] ", "a placeholder": "-:4410:4410 [0] ", "quoted placeholder": "> -:4410:4410 [0] "} {
		log := head + setting + head + warn + head + frame
		r := diagnoseBytes(t, "job.log", []byte(log), 0)
		if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Processes, []string{"pid 4410"}) ||
			r.Findings[0].Kind != diagnose.KindTopology || !strings.Contains(r.Findings[0].Summary, "NCCL_GRAPH_FILE=/etc/nccl/graph-8gpu.xml") {
			t.Errorf("%s: want pid 4410's topology-error, explained by its graph file:\n%s", name, js(r))
		}
	}
	// A head's shape inside a WARN's message is the message's: the WARN is read, of no process.
	inMessage := "[0] enqueue.cc:12 NCCL WARN Cuda failure 'peer :4410:4410 [0] gone'\n"
	if r := diagnoseBytes(t, "job.log", []byte(inMessage), 0); r.Status != diagnose.StatusFault || len(r.Findings[0].Processes) != 0 {
		t.Errorf("a head in a WARN's message: want the WARN read, of no process:\n%s", js(r))
	}
	for _, head := range []string{":44x0:4410 [0] ", "node3:4410:4410x [0] ", "x:4410:4410 [0]"} {
		if r := diagnoseBytes(t, "job.log", []byte(head+warn+head+frame), 0); r.Status == diagnose.StatusFault &&
			slices.Contains(r.Findings[0].Processes, "pid 4410") {
			t.Errorf("%q is read as pid 4410's head:\n%s", head, js(r))
		}
	}
}

package diagnose_test

import (
	"slices"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestRedactedPid: a head whose pid (and tid) a user redacted names its host, not the
// redaction the parser reads as one; a head that names a host alone keeps it.
func TestRedactedPid(t *testing.T) {
	const warn = " ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx_x:1, curr state INIT, next state RTR\n"
	for head, host := range map[string]string{
		"host-01.example.com:XXXXXX [5]":                       "host-01.example.com",
		"[2026-03-13 22:26:02] host-01.example.com:XXXXXX [5]": "host-01.example.com",
		"node3:XXXX:XXXX [5]":                                  "node3",
		"gpu7 [5]":                                             "gpu7",
	} {
		r := diagnoseBytes(t, "redacted.log", []byte(head+warn), 0)
		if r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Hosts, []string{host}) {
			t.Errorf("%q: want host %s:\n%s", head, host, js(r))
		}
	}
}

// TestMaskedHead: a head whose host, pid and tid a user masked in brackets
// (`[Node-A]:[PID]:[Thread] [0]`) names the host the first bracket holds, where it reads as one,
// and the GPU; its WARN is that host's fault, not a malformed line's.
func TestMaskedHead(t *testing.T) {
	const warn = " NCCL WARN NET/IB : Got completion from peer [PRIVATE_IP] with error 12, opcode 0, len 0, vendor err 129 (Recv)\n"
	r := diagnoseBytes(t, "masked.log", []byte("[Node-B]:[PID]:[Thread] [3]"+warn), 0)
	if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindNetworkError ||
		!slices.Equal(r.Findings[0].Hosts, []string{"Node-B"}) || !slices.Equal(r.Findings[0].GPUs, []int64{3}) {
		t.Errorf("a masked head: want Node-B's network error on GPU 3:\n%s", js(r))
	}
	r = diagnoseBytes(t, "masked.log", []byte("[***]:[PID]:[TID] [0]"+warn), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings[0].Hosts) != 0 {
		t.Errorf("a masked head with no host's name: want a fault of no host:\n%s", js(r))
	}
}

package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// oldLines are NCCL 2.2's envelope without `NCCL`, INFO and WARN.
var oldLines = []string{
	"gpu-a:18553:18553 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out",
	"gpu-a:18553:18553 [0] INFO bootstrap.cu:28 -> 2 [Net]",
	"[rank1]: gpu-a:18553:18560 [1] INFO NET : Using interface eth0:10.0.0.1<0>",
}

// TestOldEnvelope: each reads as INFO or WARN with its envelope, in the grammar and the
// scanner alike, and Message finds its message.
func TestOldEnvelope(t *testing.T) {
	p, _ := NewParser()
	want := []Line{
		{Kind: KindWarn, Rank: -1, Env: Envelope{Host: "gpu-a", Pid: 18553, Tid: 18553, Dev: 0, Level: LevelWarn}},
		{Kind: KindInfo, Rank: -1, Env: Envelope{Host: "gpu-a", Pid: 18553, Tid: 18553, Dev: 0, Level: LevelInfo}},
		{Kind: KindInfo, Rank: 1, Env: Envelope{Host: "gpu-a", Pid: 18553, Tid: 18560, Dev: 1, Level: LevelInfo}},
	}
	msgs := []string{"Call to connect failed : Connection timed out", "bootstrap.cu:28 -> 2 [Net]", "NET : Using interface eth0:10.0.0.1<0>"}
	for i, line := range oldLines {
		got := p.Grammar().Parse([]byte(line))
		if d := cmp.Diff(want[i], got); d != "" {
			t.Errorf("%q (-want +got):\n%s", line, d)
		}
		if m := string(Message([]byte(line), &got)); m != msgs[i] {
			t.Errorf("%q: message %q, want %q", line, m, msgs[i])
		}
		checkAgreement(t, p, []byte(line))
	}
}

// TestOldEnvelopeNearMisses: other programs' text in the old envelope's shape is at most an
// INFO line, never a collective or communicator line; text before the envelope, a level not
// followed by white space, or a WARN without its location is no envelope.
func TestOldEnvelopeNearMisses(t *testing.T) {
	p, _ := NewParser()
	for _, c := range []struct {
		line string
		kind Kind
	}{
		{"foo:1:2 [0] INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x2 count 1 datatype 7 op 0 root 0 comm 0x3 [nranks=2] stream 0x4", KindCollective},
		{"foo:1:2 [0] INFO comm 0x5 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE", KindInfo},
		{"foo:1:2 [0] INFO something", KindInfo},
		{"see foo:1:2 [0] INFO something", KindOther},
		{"foo:1:2 [0] INFO: something", KindOther},
		{"foo:1:2 [0] WARN something", KindOther},
		{"12:00:01 [x] INFO started", KindOther},
		{"foo:1:2\t[0] INFO something", KindOther},
		{"foo:1:2 [0]  INFO something", KindOther},
	} {
		got := p.Grammar().Parse([]byte(c.line))
		if got.Kind != c.kind {
			t.Errorf("%q reads as %v, want %v", c.line, got.Kind, c.kind)
		}
		if got.Kind == KindCollective && got.Env.HasEnvelope() {
			t.Errorf("%q: a call with the old envelope %+v, want none (the pasted record alone)", c.line, got.Env)
		}
		checkAgreement(t, p, []byte(c.line))
	}
}

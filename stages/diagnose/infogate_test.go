package diagnose

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// infoGateLines are INFO lines for infoGate: each reader's, lines that look like one, a
// second ` INFO ` (where the gate cannot tell), a message that opens right after the
// envelope's, CRs and Ray's repeat tail.
var infoGateLines = []string{
	"h1:10:11 [0] NCCL INFO misc/socket.cc:50 -> 2",
	"h1:10:11 [0] NCCL INFO misc/socket.cc:50 -> 2 [Async thread]",
	"h1:10:11 [0] NCCL INFO transport/net.cc:1024 -> 6 (reason)\r",
	"h1:10:11 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] via P2P",
	"h1:10:11 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] 1/-1/-1->0->-1",
	"h1:10:11 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth2",
	"h1:10:11 [0] NCCL INFO NCCL_IB_HCA set to mlx5_9",
	"h1:10:11 [0] NCCL INFO NCCL_NET set to  ",
	"h1:10:11 [0] NCCL INFO x NCCL INFO NCCL_SOCKET_IFNAME set to eth0",
	"h1:10:11 [0] NCCL INFO x INFO misc/socket.cc:50 -> 2",
	"h1:10:11 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0>",
	"h1:10:11 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.1.2.3<0>\r",
	"h1:10:11 [0] NCCL INFO NET/IBext : Using [0]mlx5_0:1/IB ; OOB ib0:fe80::1%ib0<0>",
	"h1:10:11 [0] NCCL INFO Bootstrap: Using eth0:10.1.2.4<0>",
	"h1:10:11 [0] NCCL INFO Bootstrap : Using eth0:10.1.2.5<0> [repeated 3x across cluster]",
	"h1:10:11 [0] NCCL INFO Bootstrap : Using  [repeated 3x across cluster]",
	"h1:10:11 [0] NCCL INFO x NCCL INFO NET/Socket : Using [0]eth0:10.1.2.6<0>",
	"h1:10:11 [0] NCCL INFO INFO NET/Socket : Using [0]eth0:10.1.2.7<0>",
	"h1:10:11 [0] NCCL INFO Using network IB",
	"h1:10:11 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1",
	"h1:10:11 [0] NCCL INFO ",
	"h1:10:11 [0] NCCL INFO",
	"h2:12:13 [1] NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0> [1]eth1:10.1.2.3<0>",
	"(pid=5) h1:10:11 [0] NCCL INFO Bootstrap : Using eth0:10.9.9.9<0>",
	"[rank1]: h1:10:11 [0] NCCL INFO misc/socket.cc:50 -> 2",
}

// ungatedAdd is Part.Add's INFO case before infoGate: every reader tries every line. The line
// is tidied first as Add tidies it (trailing blanks, a collector's time), and its label read
// as Add reads it (labelIsHost): the gate is what this compares, not those.
func (p *Part) ungatedAdd(l *stages.Line) {
	if t := l.Text; len(t) > 4 && (mayOpenTime(t) || t[len(t)-1] <= ' ') {
		l = tidied(l)
	}
	p.seeEnvelope(l.P)
	if (l.N <= labelLines || l.N%labelLines == 0) && !p.labelHosts && labelIsHost(l.Text, l.P.Env.Host) {
		p.labelHosts = true
	}
	if p.addFrame(l.N, l.Text, l.P) {
		return
	}
	if p.open.ok {
		p.threadGoesOn(l.P, true)
	}
	if bytes.IndexByte(l.Text, '_') < 0 || !p.addSetting(l.N, l.Text, l.P) {
		p.addAddrs(l.N, l.Text, l.P)
	}
}

// checkInfoGate reads lines (INFO lines among them) with the gate and without it: the
// evidence is the same.
func checkInfoGate(t *testing.T, p *parser.Parser, lines []string) {
	gated, ungated := newPart(), newPart()
	n := 0
	for i, s := range lines {
		var pl parser.Line
		p.Parse([]byte(s), &pl)
		if pl.Kind != parser.KindInfo {
			continue
		}
		n++
		text := []byte(s)
		gated.Add(&stages.Line{N: int64(i + 1), Text: text, P: &pl})
		ungated.ungatedAdd(&stages.Line{N: int64(i + 1), Text: text, P: &pl})
	}
	o := stages.Origin{File: "f"}
	gated.Anchor(o)
	ungated.Anchor(o)
	if a, b := gated.Evidence(), ungated.Evidence(); !reflect.DeepEqual(a, b) {
		t.Fatalf("%d INFO lines of %q:\ngated   %+v\nungated %+v", n, lines, a, b)
	}
}

func TestInfoGate(t *testing.T) {
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	checkInfoGate(t, p, infoGateLines)
	for _, s := range infoGateLines {
		checkInfoGate(t, p, []string{s})
	}
}

// FuzzInfoGate: any line, read alone and after the seed lines, gives the same evidence with
// the gate and without it.
func FuzzInfoGate(f *testing.F) {
	for _, s := range infoGateLines {
		f.Add(s)
	}
	p, err := parser.NewParser()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkInfoGate(t, p, []string{s})
		checkInfoGate(t, p, append(infoGateLines[:len(infoGateLines):len(infoGateLines)], s))
	})
}

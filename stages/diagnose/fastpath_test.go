package diagnose

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/nccllog/nccllog/parser"
)

// fastpathLines are INFO lines for the in-place readers of addrs.go and evidence.go: own
// addresses, `Using` lines that are not, a second ` NCCL INFO `, Ray's repeat tail, CRs.
var fastpathLines = []string{
	"h1:10:11 [0] NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0>",
	"h1:10:11 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.1.2.3<0>\r",
	"h1:10:11 [0] NCCL INFO Bootstrap: Using eth0:10.1.2.3<0>",
	"h1:10:11 [0] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0> [repeated 3x across cluster]",
	"(pid=5) h1:10:11 [0] NCCL INFO Using network IB",
	"h1:10:11 [0] NCCL INFO x NCCL INFO NET/Socket : Using [0]eth0:10.1.2.3<0>",
	"h1:10:11 [0] NCCL INFO Using Using : Using  : Using",
	"h1:10:11 [0] NCCL INFO misc/socket.cc:50 -> 2",
	"h1:10:11 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] via P2P",
	"NCCL INFO Bootstrap: Using x",
	"Using ",
	"",
}

// ownAddrLine answers as the two searches it replaced.
func TestOwnAddrLine(t *testing.T) {
	for _, s := range fastpathLines {
		checkOwnAddrLine(t, []byte(s))
	}
}

func FuzzOwnAddrLine(f *testing.F) {
	for _, s := range fastpathLines {
		f.Add([]byte(s))
	}
	f.Fuzz(checkOwnAddrLine)
}

func checkOwnAddrLine(t *testing.T, b []byte) {
	want := bytes.Contains(b, []byte(" : Using ")) || bytes.Contains(b, []byte("Bootstrap: Using "))
	if got := ownAddrLine(b); got != want {
		t.Fatalf("ownAddrLine(%q) = %v, want %v", b, got, want)
	}
}

// infoMessage is parser.Message of every INFO line.
func TestInfoMessage(t *testing.T) {
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range fastpathLines {
		var l parser.Line
		p.Parse([]byte(s), &l)
		if l.Kind != parser.KindInfo {
			continue
		}
		n++
		if got, want := infoMessage([]byte(s), &l), parser.Message([]byte(s), &l); !bytes.Equal(got, want) {
			t.Errorf("infoMessage(%q) = %q, want %q", s, got, want)
		}
	}
	if n < 8 {
		t.Fatalf("%d INFO lines, want at least 8", n)
	}
}

// leadingInt reads as strconv the up to 4 digits it reads.
func TestLeadingInt(t *testing.T) {
	for _, s := range []string{"", "x", "0", "7 ", "42]", "9999", "12345", "0012", "-1"} {
		j := 0
		for j < len(s) && j < 4 && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		want, err := strconv.ParseInt(s[:j], 10, 64)
		got, ok := leadingInt([]byte(s))
		if ok != (err == nil) || got != want {
			t.Errorf("leadingInt(%q) = %d, %v, want %d, %v", s, got, ok, want, err == nil)
		}
	}
}

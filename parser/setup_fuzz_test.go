package parser

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/internal/sharedtest"
)

// FuzzParseSetup: any message reads without a panic, the same twice, and a message read as
// a set-up line has a kind.
func FuzzParseSetup(f *testing.F) {
	for _, s := range []string{
		"NCCL version 2.23.4+cuda12.6", "Using network IB", "NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.0.0.1<0>",
		"Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0(7)/GDRDMA(PCI)/Shared", "Ring 00 : 3 -> 4 [send] via NET/Socket/1",
		"Connected all rings, use ring PXN 0 GDR 1", "2 coll channels, 2 p2p channels, 2 p2p channels per peer",
		"NCCL_IB_HCA set to mlx5_0", "AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..15}",
		"Init timings - ncclCommInitRank: rank 0 nranks 16 total 1.84 (kernels 0.21)", "proxy.cc:874 -> 6 [Progress Thread]",
	} {
		f.Add([]byte(s))
	}
	addSampleMessages(f)
	f.Fuzz(func(t *testing.T, msg []byte) {
		s, ok := ParseSetup(msg)
		s2, ok2 := ParseSetup(msg)
		if ok != ok2 || ok && (s.Kind == SetupNone || s.Kind != s2.Kind) {
			t.Fatalf("ParseSetup(%q) = %+v, %v then %+v, %v", msg, s, ok, s2, ok2)
		}
	})
}

// addSampleMessages seeds f with the INFO messages of the shared samples, where they are.
func addSampleMessages(f *testing.F) {
	dir, _ := sharedtest.Locate()
	files, _ := filepath.Glob(filepath.Join(dir, "samples", "*.log"))
	p, err := NewParser()
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var l Line
			p.Parse(sc.Bytes(), &l)
			if m := Message(sc.Bytes(), &l); len(m) > 0 {
				f.Add(append([]byte(nil), m...))
			}
		}
		fh.Close()
	}
}

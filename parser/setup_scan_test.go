package parser

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/internal/sharedtest"
)

// setupScanCases are set-up messages and their neighbours, each with whether the fast
// path must answer it itself (sure) or leave it to the grammar. Wherever it answers, its
// Setup must be the grammar's.
var setupScanCases = []struct {
	msg  string
	sure bool
}{
	// per-connection lines of every version
	{"Channel 00/0 : 1673[1] -> 1674[2] via P2P/CUMEM/read", true},
	{"Channel 00/0 : 151[7] -> 152[0] [send] via NET/IB/3/GDRDMA", true},
	{"Channel 00/0 : 15[7] -> 0[0] [receive] via NET/IB/0/GDRDMA", true},
	{"Channel 00/1 : 0[18000] -> 8[18000] [receive] via NET/IB/0(7)/GDRDMA/Shared", true},
	{"Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0(7)/GDRDMA(PCI)/Shared", true},
	{"Channel 02 : 0[18000] -> 1[3d000] via P2P/IPC", true},
	{"Channel 00 : 0[0] -> 1[1] via SHM/direct/direct", true},
	{"Channel 03/1 : 0[0] -> 5[5] via P2P/indirect/3[3]", true},
	{"Channel 00/0 : 2[2] -> 10[2] [send] via NET/AWS Libfabric/2/GDRDMA", true},
	{"Ring 00 : 3 -> 4 [send] via NET/Socket/1", true},
	{"Ring 01 : 0[0] -> 1[1] via direct shared memory", true},
	{"CollNet 00/1 : 3 [receive] via COLLNET/SHARP/0/GDRDMA", true},
	{"Coll 00 : 3 [send] via COLLNET/SHARP/0", true},
	{"CollNet 00/0 : 3 [send] via COLLNET/SHARP/0/GDRDMA/PCI", true},
	{"Channel  00/0  :  1[1]  ->  2[2]  [send]  via  NET/IB/0  ", true},
	{"Channel\t00/0\t:\t1[1]\t->\t2[2]\tvia\tP2P/IPC", false}, // maybeSetup wants `Channel `
	{"Ring 00 :\t1[1]\t->\t2[2]\tvia\tP2P/IPC", true},
	{"Channel 00/0 : 999999999999999999[1] -> 2[2] via P2P/IPC", true},
	{"Channel 00/0 : 1[1] -> 2[2] via P2P/IPC\v", true},
	{"Channel 00/0 : 1[1] -> 2[2] via P2P/IPC\u00a0", true},
	{"Channel 00/0 : 1[1] -> 2[2] via \u00a0", true},
	{"Channel 00/0 : 1[1] -> 2[2] via NET/IB/0 [send]", true},
	{"Channel 00/0 : 9999999999999999999[1] -> 2[2] via P2P/IPC", false},
	{"Channel 00/0 : -1[1] -> 2[2] via P2P/IPC", false},
	{"Channel 00/0 : 1[1] -> -1 via P2P/IPC", false},
	{"Channel 00/0 : 1x[1] -> 2[2] via P2P/IPC", false},
	{"Channel 00/0 : 1[] -> 2[2] via P2P/IPC", false},
	{"Channel 00/0 : 1[1] -> 2[2] [sent] via P2P/IPC", false},
	{"Channel 00/0 : 1[1] - > 2[2] via P2P/IPC", false},
	{"Channel 00/0 : 1[1] -> 2[2] via", false},
	{"Channel 00/0 : 1[1] -> 2[2] via \f", false},
	{"Channel 00/0 : 1[1] -> 2[2]", false},
	{"Channel 00/0: 1[1] -> 2[2] via P2P/IPC", false},
	{"Channel 00/0 : 1[1] -> 2[2] via h:1:2", false},
	{"Channel 00/0 : a:1:2 -> 2[2] via P2P/IPC", false},
	{"Channel 00/24 :    0   1   2   3", false},
	{"Channel 00/0 : 1[1] [send] -> 2[2] via NET/IB/0", false},
	// rings, channels
	{"Connected all rings", true},
	{"Connected all rings, use ring PXN 0 GDR 1", true},
	{"Connected all rings,  use  ring  PXN  12  GDR  0", true},
	{"Connected all rings, use ring PXN -1 GDR 1", false},
	{"Connected all rings, use ring PXN 0", false},
	{"Connected all trees", false},
	{"24 coll channels, 24 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer", true},
	{"2 coll channels, 2 p2p channels, 2 p2p channels per peer", true},
	{"2 coll channels", true},
	{"2 coll channels, 4 p2p channels, 6 p2p channels", true},
	{"2 coll channels, 4 collnet channels per peer", true},
	{"2 coll channels, 4 foo channels", false},
	{"2 coll channels, 4 p2p channels per", false},
	// timings
	{"Init timings - ncclCommInitRank: rank 2838 nranks 4096 total 1.83 (kernels 0.17, alloc 0.19, bootstrap 0.37, allgathers 0.24, topo 0.25, graphs 0.15, connections 0.37, rest 0.09)", true},
	{"Init timings: rank 3 nranks 16 total 0.50 (kernels 0.10, bootstrap 0.40)", true},
	{"Init timings - ncclCommSplit: rank 0 nranks 2 total 0.01", true},
	{"Init timings - myInit: rank 0 nranks 2 total 0.01", true},
	{"Init timings: rank 3 nranks 16 total 0.50 (kernels  0.10)", false},
	{"Init timings: rank 3 nranks 16 total 0.50 (kernels 0.10,bootstrap 0.40)", false},
	{"Init timings: rank 3 nranks 16 total 1e5", false},
	{"Init timings: rank 3 nranks 16 total NaN", false},
	{"Init timings: rank 3 nranks 16 total 1..2", false},
	{"Init timings: rank 3 nranks 16 total 0.5 ()", false},
	{"Bootstrap timings total 0.012345 (create 0.000100, send 0.001000)", true},
	{"Bootstrap timings total 0.35", true},
	{"Bootstrap : Using eth0:10.0.0.1<0>", false},
	// network
	{"Using network IB", true},
	{"Using network Socket", true},
	{"Using network AWS Libfabric", true},
	{"Using network  IB", true},
	{"NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.2.79<0>", true},
	{"NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>", true},
	{"NET/IBext : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.0.0.1<0>", true},
	{"NET/IB: Using [0]mlx5_0:1/IB:0:rail; OOB eth0:10.0.0.1<0>", false}, // ';' is a Word byte
	{"NET/IB: Using [0]mlx5_0:1/IB:0:rail ; OOB eth0:10.0.0.1<0>", true},
	{"NET/IB : Using [RO]; OOB eth0:10.0.0.1<0>", true},
	{"NET/IB : Using [0]mlx5_0:1:2; OOB eth0:10.0.0.1<0>", false},
	{"NET/IB : Using [0]mlx5_0:1/IB", false},
	{"NET/IB : Using [0]mlx5_0:1/IB [RO] [1]mlx5_1:1/IB; OOB e", false},
	{"NET/Socket : Using [0]eth0:10.12.0.7<0> [1]eth1:10.13.0.7<0>", true},
	{"NET/Socket : Using [0]eth0:fe80::1%eth0<0>", true},
	{"NET/Socket: Using 2 threads and 8 sockets per thread", false},
	{"NET/OFI Selected Provider is efa (found 4 nics)", false},
	// version, driver
	{"NCCL version 2.23.4+cuda12.6", true},
	{"NCCL version 2.18.5+cuda12.2 extra words", true},
	{"RCCL version : 2.21.5-abc123", true},
	{"RCCL version : 2.26.6-HEAD:f224e2c", true},
	{"HIP version  : 7.0.51831-a3e329ad8", true},
	{"ROCm version : 7.0.0.0-38-9428210", true},
	{"NCCL version :2.1", false},
	{"NCCL version ", false},
	{"cudaDriverVersion 12020", true},
	{"cudaDriverVersion 12020 x", false},
	// other set-up kinds stay with the grammar
	{"NCCL_IB_HCA set to mlx5_0", false},
	{"AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..15}", false},
	{"proxy.cc:874 -> 6 [Progress Thread]", false},
	{"Trees [0] 1/-1/-1->0->-1 [1] -1/-1/-1->0->1", false},
	{"", false},
}

// setupScanCheck fails t where the fast path answers msg and the grammar reads it otherwise.
// It returns whether the fast path answered.
func setupScanCheck(t *testing.T, msg []byte) bool {
	t.Helper()
	if len(msg) > MaxRead {
		msg = msg[:MaxRead]
	}
	msg = bytes.TrimRight(msg, " \t\r\n")
	s, sure := scanSetup(msg)
	if !sure {
		return false
	}
	g, ok := grammarSetup(msg)
	if !ok {
		t.Fatalf("scanSetup(%q) = %+v; the grammar reads no set-up line", msg, s)
	}
	if d := cmp.Diff(g, s); d != "" {
		t.Fatalf("scanSetup(%q) differs from the grammar (-grammar +scan):\n%s", msg, d)
	}
	return true
}

func TestSetupScanTable(t *testing.T) {
	for _, c := range setupScanCases {
		if sure := setupScanCheck(t, []byte(c.msg)); sure != c.sure {
			t.Errorf("scanSetup(%q) answered %v, want %v", c.msg, sure, c.sure)
		}
	}
}

// TestSetupScanLongVia: a message over MaxRead is cut as the grammar's is.
func TestSetupScanLongVia(t *testing.T) {
	msg := "Channel 00/0 : 1[1] -> 2[2] via NET/" + strings.Repeat("x", MaxRead)
	if !setupScanCheck(t, []byte(msg)) {
		t.Errorf("scanSetup did not answer a long via")
	}
}

// FuzzSetupScanAgrees: wherever the set-up fast path answers, it answers as the grammar.
// The grammar runs only on what the fast path answers, so most inputs cost a token or two.
func FuzzSetupScanAgrees(f *testing.F) {
	for _, c := range setupScanCases {
		f.Add([]byte(c.msg))
	}
	addSampleMessages(f)
	f.Fuzz(func(t *testing.T, msg []byte) {
		setupScanCheck(t, msg)
	})
}

// TestSetupScanSamples: on every message of the shared samples, the fast path answers as the
// grammar wherever it answers.
func TestSetupScanSamples(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	answered := 0
	for _, name := range sharedtest.Glob(t, "samples/*.log") {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			var l Line
			p.Parse(line, &l)
			if m := Message(line, &l); len(m) > 0 && setupScanCheck(t, m) {
				answered++
			}
		}
	}
	if answered == 0 {
		t.Errorf("the fast path answered no message of the samples")
	}
}

package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// commEdgeMessages are communicator messages built beside the forms of the format reference
// (§3.1, §3.2, §3.5), each one step off a real form: the scanner must read them as the
// grammar does, or leave them to it.
var commEdgeMessages = []string{
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 cudaDev 0 busId 18000 - Init COMPLETE and more words",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 cudaDev 0 busId 18000 -  Init  COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 cudaDev 0 busId 18000 - Init STARTED",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 cudaDev 0 busId 18000 - Revoke COMPLETE, result x",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 cudaDev 0 busId 18000 - Revoke COMPLETE, result -6",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 cudaDev 0 busId 18000 - Revoke COMPLETE,result 6",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 busId 1b:2:3 - Init COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 busId zz - Init COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 commId 0x - Init COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 parent -0x1 - Init COMPLETE",
	"comm 0x55d4c2a8e0f0 rank -1 nranks -16 color -1 key -2 - Init START",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 localSize 8 used x bytes - Init COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 localSize 8 used 12 bytes on core - Init COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 localSize 8 used 12 bytes on core 3- Init COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 0 nRanks 16 nNodes -1 localRanks 8 localRank 0 MNNVL 0",
	"comm 0x55d4c2a8e0f0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0 [repeated 2x across cluster]",
	"comm 0x55d4c2a8e0f0 rank 0 nRanks 16 nNodes 2 nNodes x",
	"comm 0x55d4c2a8e0f0 rank 0 nRanks 16 nNodes 2 nNodes",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 cudaDev 0 cudaDev 1 - Destroy COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 16 cudaDev\t0 busId\t18000\t-\tAbort COMPLETE",
	"comm 0xZZ rank 0 nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0 rank x nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0 rank 0 nranks 1:2:3 - Init START",
	"comm comm 0x55d4c2a8e0f0 rank 0 nranks 16 - Init START",
	"ncclCommInitRank2 comm 0x55d4c2a8e0f0 rank 0 nranks 16 - Init START",
	"nccl_Comm.Init comm 0x55d4c2a8e0f0 rank 0 nranks 16 - Init START",
	"[Rank 3]comm 0x55d4c2a8e0f0 rank 3 nranks 16 - Init START",
	"[Rank 3] [Rank 3] ncclCommInitRank comm 0x55d4c2a8e0f0 rank 3 nranks 16 - Init START",
	"[Rank x] ncclCommInitRank comm 0x55d4c2a8e0f0 rank 3 nranks 16 - Init START",
	"[Rank 3]  ncclCommInitRank  comm  0x55d4c2a8e0f0  rank  3  nranks  16  -  Init  START",
	"[2] Segment 0, Type : 1",
	"register comm 0x56e33070 buffer 0xbee0000000 size 1968048128",
	"comm",
	"comm 0x1",
	"comm 0x1 rank 2 nranks",
	"comm 0x1234567890abcdef rank 123456789012345678 nranks 16 - Init START",
	"comm 0x1234567890abcdef0 rank 1 nranks 16 - Init START",
	"comm 0x55D4C2A8E0F0 rank 1234567890123456789 nranks 16 - Init START",
	"comm 0x55d4c2a8e0fg rank 1 nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0.1 rank 1 nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0, rank 1 nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0 rank 1a nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0 rank 1_ nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0 rank 1: nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0 rank 1- Init START",
	"comm 0x55d4c2a8e0f0 rank 1 nranks 16- Init START",
	"comm: 0x55d4c2a8e0f0 rank 1 nranks 16 - Init START",
	"commx 0x55d4c2a8e0f0 rank 1 nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0 ranks 1 nranks 16 - Init START",
	"comm 0x55d4c2a8e0f0 rank 1 nranks 16 localSize 8 used 12 bytes: on core 3 - Init COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 1 nranks 16 localSize 8 used 12 bytesx on core 3 - Init COMPLETE",
	"comm 0x55d4c2a8e0f0 rank 1 nranks 16 - Revoke COMPLETE, results 0",
	"comm 0x55d4c2a8e0f0 rank 1 nranks 16 - Revoke COMPLETE, result: 0",
}

// warnEdgeLines are WARN lines beside the forms of §1.3.
var warnEdgeLines = []string{
	"gpu-node-07:48211:48390 [0] misc/socket.cc:484 NCCL WARN",
	"gpu-node-07:48211:48390 [0] misc/socket.cc:484 NCCL WARN ",
	"gpu-node-07:48211:48390 [0] misc/socket.cc:484 NCCL WARN: colon",
	"gpu-node-07:48211:48390 [0] misc/socket.cc:484 NCCL  WARN two spaces",
	"gpu-node-07:48211:48390 [0] misc/socket.cc:484 NCCL WARNING not the level",
	"gpu-node-07:48211:48390 [0] a:1:2 NCCL WARN an HPT in the location",
	"gpu-node-07:48211:48390 [0] os/linux.cc:328 (ncclOsSocketPollConnect) NCCL WARN connect failed",
	"gpu-node-07:48211:48390 [0] NCCL/src/init.cc:12 NCCL WARN a path with NCCL in it",
	"gpu-node-07:48211:48390 [0] init.cc:12 NCCL INFO NCCL WARN the first level wins",
	"gpu-node-07:48211:48390 [0] init.cc:12 NCCL WARN gpu-node-08:1:2 [1] NCCL INFO spliced",
	"gpu-node-07:48211:48390 [-1] init.cc:12 NCCL WARN negative device",
	"gpu-node-07:48211:48390 [0]  init.cc:12 NCCL WARN two spaces after the device",
	"gpu-node-07:48211:48390 [0]init.cc:12 NCCL WARN no space after the device",
	"[2026-01-20 09:15:02] gpu-node-07:48211:48390 [0] os/linux.cc:328 NCCL WARN stamped",
	"3: gpu-node-07:48211:48390 [0] transport/net_ib.cc:1287 NCCL WARN NET/IB : Got async event : port error",
}

// TestCommAndWarnEdgeFormsAgree holds the scanner to the grammar on every form above, each
// line three times through one parser (the third reading is the scanner's, unchecked).
func TestCommAndWarnEdgeFormsAgree(t *testing.T) {
	var lines []string
	for _, m := range commEdgeMessages {
		lines = append(lines, "gpu-node-07:48211:48211 [0] NCCL INFO "+m)
	}
	lines = append(lines, warnEdgeLines...)
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range lines {
		want := p.Grammar().Parse([]byte(in))
		var fast Line
		if p.Scan([]byte(in), &fast) && !cmp.Equal(want, fast) {
			t.Errorf("scanner and grammar disagree on %q (-grammar +scanner):\n%s", in, cmp.Diff(want, fast))
		}
		for range 3 {
			var got Line
			if p.Parse([]byte(in), &got); !cmp.Equal(want, got) {
				t.Errorf("Parser.Parse(%q) differs from the grammar:\n%s", in, cmp.Diff(want, got))
			}
		}
	}
}

// FuzzCommAndWarnAgree fuzzes the message of an INFO line and the location and message of a
// WARN line, seeded with the forms above and every communicator line of the tables, and
// holds the scanner to the grammar on both.
func FuzzCommAndWarnAgree(f *testing.F) {
	for _, m := range commEdgeMessages {
		f.Add(m, "misc/socket.cc:484")
	}
	for _, c := range commCases {
		f.Add(c.in, "init.cc:12")
	}
	p, err := NewParser()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, msg, loc string) {
		checkAgreement(t, p, []byte("gpu-node-07:48211:48211 [0] NCCL INFO "+msg))
		checkAgreement(t, p, []byte("gpu-node-07:48211:48390 [1] "+loc+" NCCL WARN "+msg))
	})
}

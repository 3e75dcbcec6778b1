package parser

import (
	"reflect"
	"testing"
)

func TestParseSetup(t *testing.T) {
	cases := []struct {
		msg  string
		want Setup
	}{
		{"NCCL version 2.23.4+cuda12.6", Setup{Kind: SetupVersion, Name: "NCCL", Text: "2.23.4+cuda12.6"}},
		{"RCCL version : 2.21.5-abc123", Setup{Kind: SetupVersion, Name: "RCCL", Text: "2.21.5-abc123"}},
		{"RCCL version : 2.26.6-HEAD:f224e2c", Setup{Kind: SetupVersion, Name: "RCCL", Text: "2.26.6-HEAD:f224e2c"}},
		{"HIP version  : 7.0.51831-a3e329ad8", Setup{Kind: SetupVersion, Name: "HIP", Text: "7.0.51831-a3e329ad8"}},
		{"cudaDriverVersion 12020", Setup{Kind: SetupDriver, Text: "12020"}},
		{"Using network IB", Setup{Kind: SetupNetwork, Text: "IB"}},
		{"Using network AWS Libfabric", Setup{Kind: SetupNetwork, Text: "AWS Libfabric"}},
		{"NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.12.0.7<0>",
			Setup{Kind: SetupNetIB, Name: "IB", Text: "mlx5_0:1/IB mlx5_1:1/RoCE [RO]"}},
		{"NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>", Setup{Kind: SetupNetIB, Name: "IB", Text: "mlx5_0:1/IB"}},
		{"NET/Socket : Using [0]eth0:10.12.0.7<0> [1]eth1:10.13.0.7<0>", Setup{Kind: SetupNetSocket, Text: "eth0 eth1"}},
		{"NET/OFI Selected Provider is efa (found 4 nics)", Setup{Kind: SetupNetPlugin, Name: "OFI", Text: "Selected Provider is efa (found 4 nics)"}},
		{"Channel 00/0 : 15[7] -> 0[0] [receive] via NET/IB/0/GDRDMA", Setup{Kind: SetupConn, Conn: Conn{
			Channel: 0, Index: 0, From: 15, To: 0, FromDev: "7", ToDev: "0", Dir: "receive", Via: "NET/IB/0/GDRDMA",
			Transport: "NET/IB/GDRDMA", Net: true, GDR: true}}},
		{"Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0(7)/GDRDMA(PCI)/Shared", Setup{Kind: SetupConn, Conn: Conn{
			Index: 0, To: 8, FromDev: "0", ToDev: "0", Dir: "send", Via: "NET/IB/0(7)/GDRDMA(PCI)/Shared",
			Transport: "NET/IB/GDRDMA(PCI)/Shared", Net: true, GDR: true}}},
		{"Channel 02 : 0[18000] -> 1[3d000] via P2P/IPC", Setup{Kind: SetupConn, Conn: Conn{
			Channel: 2, Index: -1, From: 0, To: 1, FromDev: "18000", ToDev: "3d000", Via: "P2P/IPC", Transport: "P2P/IPC"}}},
		{"Ring 00 : 3 -> 4 [send] via NET/Socket/1", Setup{Kind: SetupConn, Conn: Conn{
			Index: -1, From: 3, To: 4, Dir: "send", Via: "NET/Socket/1", Transport: "NET/Socket", Net: true}}},
		{"Ring 01 : 0[0] -> 1[1] via direct shared memory", Setup{Kind: SetupConn, Conn: Conn{
			Channel: 1, Index: -1, To: 1, FromDev: "0", ToDev: "1", Via: "direct shared memory", Transport: "direct shared memory"}}},
		{"Channel 00/0 : 2[2] -> 10[2] [send] via NET/AWS Libfabric/2/GDRDMA", Setup{Kind: SetupConn, Conn: Conn{
			Index: 0, From: 2, To: 10, FromDev: "2", ToDev: "2", Dir: "send", Via: "NET/AWS Libfabric/2/GDRDMA",
			Transport: "NET/AWS Libfabric/GDRDMA", Net: true, GDR: true}}},
		{"Channel 03/1 : 0[0] -> 5[5] via P2P/indirect/3[3]", Setup{Kind: SetupConn, Conn: Conn{
			Channel: 3, Index: 1, To: 5, FromDev: "0", ToDev: "5", Via: "P2P/indirect/3[3]", Transport: "P2P/indirect"}}},
		{"Connected all rings", Setup{Kind: SetupRings, Rings: Rings{PXN: -1, GDR: -1}}},
		{"Connected all rings, use ring PXN 0 GDR 1", Setup{Kind: SetupRings, Rings: Rings{PXN: 0, GDR: 1}}},
		{"24 coll channels, 24 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer",
			Setup{Kind: SetupChannels, Channels: Channels{24, 24, 16, 32, 32}}},
		{"2 coll channels, 2 p2p channels, 2 p2p channels per peer", Setup{Kind: SetupChannels, Channels: Channels{2, -1, -1, 2, 2}}},
		{"NCCL_IB_GID_INDEX set by environment to 3.", Setup{Kind: SetupEnv, Name: "NCCL_IB_GID_INDEX", Text: "3"}},
		{"NCCL_SOCKET_IFNAME set by environment to eth0", Setup{Kind: SetupEnv, Name: "NCCL_SOCKET_IFNAME", Text: "eth0"}},
		{"NCCL_IB_HCA set to mlx5_0,mlx5_1", Setup{Kind: SetupEnv, Name: "NCCL_IB_HCA", Text: "mlx5_0,mlx5_1"}},
		{"8388608 Bytes -> Algo 1 proto 2 time 61.873001", Setup{Kind: SetupTuning, Tuning: Tuning{Bytes: 8388608, Algo: "RING", Proto: "SIMPLE"}}},
		{"AllGather: 1024 Bytes -> Algo 0 proto 0 time 12.5", Setup{Kind: SetupTuning, Tuning: Tuning{Op: "AllGather", Bytes: 1024, Algo: "TREE", Proto: "LL"}}},
		{"AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..15}", Setup{Kind: SetupTuning, Tuning: Tuning{Op: "AllReduce", Bytes: 4194304, Algo: "RING", Proto: "SIMPLE"}}},
		{"Init timings - ncclCommInitRank: rank 0 nranks 16 total 1.84 (kernels 0.21, alloc 0.02, bootstrap 0.35)",
			Setup{Kind: SetupTimings, Timing: Timing{API: "ncclCommInitRank", Rank: 0, NRanks: 16, Total: 1.84, Parts: "kernels 0.21, alloc 0.02, bootstrap 0.35"}}},
		{"Init timings: rank 3 nranks 16 total 0.50 (kernels 0.10, bootstrap 0.40)",
			Setup{Kind: SetupTimings, Timing: Timing{Rank: 3, NRanks: 16, Total: 0.5, Parts: "kernels 0.10, bootstrap 0.40"}}},
		{"Bootstrap timings total 0.012345 (create 0.000100, send 0.001000)",
			Setup{Kind: SetupBootTimings, Timing: Timing{Rank: -1, NRanks: -1, Total: 0.012345, Parts: "create 0.000100, send 0.001000"}}},
		{"transport/net.cc:1298 -> 6", Setup{Kind: SetupBacktrace, Frame: Frame{File: "transport/net.cc", Line: 1298, Result: 6}}},
		{"proxy.cc:874 -> 6 [Progress Thread]", Setup{Kind: SetupBacktrace, Frame: Frame{File: "proxy.cc", Line: 874, Result: 6, Thread: "Progress Thread"}}},
		{"init.cc:1460 (ncclCommInitRankFunc) -> 2", Setup{Kind: SetupBacktrace, Frame: Frame{File: "init.cc", Line: 1460, Func: "ncclCommInitRankFunc", Result: 2}}},
	}
	for _, c := range cases {
		got, ok := ParseSetup([]byte(c.msg))
		if !ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseSetup(%q) = %+v, %v\nwant %+v", c.msg, got, ok, c.want)
		}
	}
}

func TestParseSetupRejects(t *testing.T) {
	for _, msg := range []string{
		"Channel 00/24 :    0   1   2   3", "Trees [0] 1/-1/-1->0->-1", "Comm config Blocking set to 1",
		"Bootstrap : Using eth0:10.0.0.1<0>", "AllReduce [Symmetric]: 1024 Bytes -> Kernel x nchannels 2 nthreads 3",
		"", "NET/Socket: Using 2 threads and 8 sockets per thread",
	} {
		if s, ok := ParseSetup([]byte(msg)); ok {
			t.Errorf("ParseSetup(%q) = %+v, want no set-up line", msg, s)
		}
	}
}

func TestMessage(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]string{
		"3: gpu-node-07:48211:48211 [0] NCCL INFO Using network IB":                                    "Using network IB",
		"[2025-06-11 14:03:27] gpu-07:4:5 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: failed": "socketStartConnect: failed",
		"NCCL version 2.18.5+cuda12.2":                                                                 "NCCL version 2.18.5+cuda12.2",
		"hello world":                                                                                  "",
		"(RayWorker pid=1) h:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0 [repeated 2x across cluster]": "NCCL_SOCKET_IFNAME set by environment to eth0",
	} {
		var l Line
		p.Parse([]byte(line), &l)
		if got := string(Message([]byte(line), &l)); got != want {
			t.Errorf("Message(%q) = %q, want %q", line, got, want)
		}
	}
}

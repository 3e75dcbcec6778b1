package parser

import (
	"math"
	"testing"
)

// Number traps (ref §2.3, §3.1, §7.4–7.5): opCount and busId are hexadecimal without 0x,
// decimal fields with leading zeros are decimal (never octal), %p is 0x… or (nil), and a
// value that does not fit its field makes a collective line malformed rather than wrong.
// Unless a comment says otherwise, each line is the ref §2.1 example line with one field
// changed:
//
//	gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000
//	recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0
//	[nranks=16] stream 0x55d4c1f3a2b0

// refColl is the Collective of the ref §2.1 example line.
func refColl() Collective {
	return Collective{Op: "AllReduce", OpCount: 0x1a3, SendBuff: 0x7f3a1c000000, RecvBuff: 0x7f3a1c000000,
		Count: 1048576, Datatype: 7, RedOp: 0, Root: 0, Comm: 0x55d4c2a8e0f0, NRanks: 16,
		Stream: 0x55d4c1f3a2b0, Task: -1, GlobalRank: -1}
}

// refCollLine is the Line of a changed ref §2.1 line; change edits the Collective.
func refCollLine(change func(c *Collective)) Line {
	c := refColl()
	change(&c)
	return Line{Kind: KindCollective, Rank: -1, Env: envInfo("gpu-node-07", 48211, 48211, 0), Coll: c}
}

// refMalformed is the Line of a ref §2.1 line that cannot be read as a collective.
var refMalformed = Line{Kind: KindMalformed, Rank: -1, Env: envInfo("gpu-node-07", 48211, 48211, 0),
	Reason: "unreadable collective line: "}

var numberCases = []lineCase{
	// --- opCount is %lx ---
	{
		name: "opCount_10_is_16",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 10 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.OpCount = 16 }),
	},
	{
		name: "opCount_1a_is_26",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.OpCount = 26 }),
	},
	{
		name: "opCount_0",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.OpCount = 0 }),
	},
	{
		name: "opCount_16_hex_digits_is_max_uint64",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount ffffffffffffffff sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.OpCount = math.MaxUint64 }),
	},
	{
		name: "opCount_17_hex_digits_is_malformed",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 10000000000000000 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refMalformed,
	},
	{
		name: "opCount_non_hex_is_malformed",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1g3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refMalformed,
	},
	{
		name: "opCount_with_0x_is_malformed",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 0x1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refMalformed,
	},
	{
		name: "opCount_negative_is_malformed",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount -1 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refMalformed,
	},

	// --- decimal fields: leading zeros are decimal ---
	{
		name: "count_010_is_10",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 010 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.Count = 10 }),
	},
	{
		name: "datatype_09_op_010_nranks_016",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 09 op 010 root 0 comm 0x55d4c2a8e0f0 [nranks=016] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.Datatype, c.RedOp, c.NRanks = 9, 10, 16 }),
	},
	{
		name: "count_18_digits",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 999999999999999999 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.Count = 999999999999999999 }),
	},
	{
		name: "count_19_digits_is_malformed",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1234567890123456789 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refMalformed,
	},
	{
		// %zu of (size_t)-1.
		name: "count_20_digits_is_malformed",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 18446744073709551615 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refMalformed,
	},
	{
		name: "root_19_digits_is_malformed",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 1000000000000000000 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refMalformed,
	},
	{
		name: "count_hex_is_malformed",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1a datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refMalformed,
	},

	// --- negative values are data ---
	{
		// %zi of a negative count (≤2.21).
		name: "count_negative",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count -5 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.Count = -5 }),
	},
	{
		name: "root_negative",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root -1 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.Root = -1 }),
	},

	// --- %p ---
	{
		name: "nil_pointers_are_0",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff (nil) recvbuff (nil) count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream (nil)",
		want: refCollLine(func(c *Collective) { c.SendBuff, c.RecvBuff, c.Stream = 0, 0, 0 }),
	},
	{
		// Any text in a pointer field keeps the call, the pointer unread (see pastedCases).
		name: "pointer_without_0x_is_unread",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.Comm, c.Unread = 0, PtrComm }),
	},
	{
		name: "pointer_0x_alone_is_unread",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x",
		want: refCollLine(func(c *Collective) { c.Stream, c.Unread = 0, PtrStream }),
	},
	{
		name: "pointer_of_17_digits_is_unread",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c0000001234a recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0",
		want: refCollLine(func(c *Collective) { c.SendBuff, c.Unread = 0, PtrSend }),
	},
	{
		// RCCL suffix with leading zeros (rccl-msccl sample line, fields changed).
		name: "rccl_task_00_globalrank_010",
		in:   "banff-cyxtera-s78-4:52939:52939 [2] NCCL INFO AllReduce: opCount 2 sendbuff 0x7f2a8436e600 recvbuff 0x7f2a8436e600 count 1 datatype 8 op 0 root 0 comm 0xac3ea00 [nranks=8] stream 0xa78f810 task 00 globalrank 010",
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("banff-cyxtera-s78-4", 52939, 52939, 2),
			Coll: Collective{Op: "AllReduce", OpCount: 2, SendBuff: 0x7f2a8436e600, RecvBuff: 0x7f2a8436e600,
				Count: 1, Datatype: 8, RedOp: 0, Root: 0, Comm: 0xac3ea00, NRanks: 8,
				Stream: 0xa78f810, Task: 0, GlobalRank: 10}},
	},

	// --- communicator lines and the envelope ---
	{
		// issue-tensorflow94650-1proc-4gpu-initcomplete-inittimings.log: busId 10000 is hex.
		name: "tf94650_busId_10000_is_hex",
		in:   "volta:1533219:1535132 [3] NCCL INFO ncclCommInitRank comm 0x7d10f40da2e0 rank 3 nranks 4 cudaDev 3 nvmlDev 3 busId 10000 commId 0x5d7760b8864df153 - Init COMPLETE",
		want: Line{Kind: KindComm, Rank: -1, Env: envInfo("volta", 1533219, 1535132, 3),
			Comm: CommEvent{Event: "Init COMPLETE", API: "ncclCommInitRank", Comm: 0x7d10f40da2e0, Rank: 3, NRanks: 4,
				CudaDev: 3, NvmlDev: 3, BusID: 0x10000, CommID: 0x5d7760b8864df153, Parent: 0, Color: 0, Key: 0, Split: -1,
				NNodes: -1, LocalRks: -1, LocalRk: -1}},
	},
	{
		// built: leading zeros in the envelope and in the comm fields (08 is not octal).
		name: "leading_zeros_envelope_and_comm",
		in:   "gpu-node-07:0048211:048211 [007] NCCL INFO comm 0x55d4c2a8e0f0 rank 08 nranks 016 cudaDev 07 busId 0001b000 - Init COMPLETE",
		want: Line{Kind: KindComm, Rank: -1, Env: envInfo("gpu-node-07", 48211, 48211, 7),
			Comm: CommEvent{Event: "Init COMPLETE", API: "", Comm: 0x55d4c2a8e0f0, Rank: 8, NRanks: 16,
				CudaDev: 7, NvmlDev: -1, BusID: 0x1b000, CommID: 0, Parent: 0, Color: 0, Key: 0, Split: -1,
				NNodes: -1, LocalRks: -1, LocalRk: -1}},
	},
	{
		// built: a comm line whose cudaDev is not a number is no comm line (but still INFO).
		name: "comm_bad_cudaDev_is_info",
		in:   "gpu-node-07:48211:48211 [0] NCCL INFO comm 0x55d4c2a8e0f0 rank 0 nranks 16 cudaDev x busId 18000 - Init COMPLETE",
		want: Line{Kind: KindInfo, Rank: -1, Env: envInfo("gpu-node-07", 48211, 48211, 0)},
	},
	{
		// built: srun label 007 is rank 7.
		name: "srun_label_leading_zeros",
		in:   "007: gpu-node-07:48211:48211 [0] NCCL INFO Using network IB",
		want: Line{Kind: KindInfo, Rank: 7, Env: envInfo("gpu-node-07", 48211, 48211, 0)},
	},
	{
		// built: mpirun rank 010 is ten.
		name: "mpirun_rank_leading_zero",
		in:   "[1,010]<stdout>:gpu-node-07:48211:48211 [0] NCCL INFO Using network IB",
		want: Line{Kind: KindInfo, Rank: 10, Env: envInfo("gpu-node-07", 48211, 48211, 0)},
	},

	// --- progress numbers ---
	{
		// built from the Megatron format: 61674.3 ms is 61.6743 s; iteration 050 is 50.
		name: "megatron_ms_to_s_and_leading_zero_step",
		time: wall(StampNCCL, "2025-11-28T18:48:17Z", false),
		in:   " [2025-11-28 18:48:17] iteration      050/    5000 | consumed samples:        51200 | elapsed time per iteration (ms): 61674.3 | throughput per GPU (TFLOP/s/GPU): 68.2 |",
		want: Line{Kind: KindProgress, Rank: -1,
			Prog: Progress{Framework: "megatron", Step: 50, TimeS: 61.6743, TFLOPs: 68.2, HasTime: true, HasTFLOPs: true}},
	},
	{
		// built from the NeMo sample: a step time that is no number leaves the field unset.
		name: "nemo_time_not_a_number",
		in:   "Training epoch 0, iteration 45/99 | train_step_timing in s: n/a | TFLOPS_per_GPU: 1.249e+03",
		want: Line{Kind: KindProgress, Rank: -1,
			Prog: Progress{Framework: "nemo", Step: 45, TimeS: 0, TFLOPs: 1249, HasTime: false, HasTFLOPs: true}},
	},
}

func TestNumberTraps(t *testing.T) { checkLines(t, numberCases) }

package parser

import "testing"

// redactedHostCases are envelopes whose host a user or a platform redacted: a placeholder in
// angle brackets, or no host at all (`:pid:tid`: some containers print an empty name). The
// process is still known by its pid; the host is what the line printed.
var redactedHostCases = []lineCase{
	{
		name: "angle_placeholder_warn",
		in:   "<merlin-training>:255200:255473 [1] misc/socket.cc:538 NCCL WARN Net : Connection closed by remote peer <merlin-training>.ap-south-1.compute.internal<40048>",
		want: Line{Kind: KindWarn, Rank: -1, Env: envWarn("<merlin-training>", 255200, 255473, 1)},
	},
	{
		name: "angle_placeholder_chain",
		in:   "<merlin-training>:255200:255473 [1] NCCL INFO transport/net_socket.cc:493 -> 6",
		want: Line{Kind: KindInfo, Rank: -1, Env: envInfo("<merlin-training>", 255200, 255473, 1)},
	},
	{
		name: "empty_host",
		in:   ":21831:21831 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to enP7s7",
		want: Line{Kind: KindInfo, Rank: -1, Env: envInfo("", 21831, 21831, 0)},
	},
	{
		name: "empty_host_after_colon",
		in:   "::16674:16674 [0] NCCL INFO Bootstrap : Using eth0:10.1.0.4<0>",
		want: Line{Kind: KindInfo, Rank: -1, Env: envInfo("", 16674, 16674, 0)},
	},
	{
		name: "empty_host_behind_collector_label",
		in:   "2025-08-12 09:37:02.216313 worker-9 >> :168:1228 [2] NCCL INFO Connected all trees",
		time: Stamp{Nanos: 1754991422216313000, Form: StampISO, Digits: 6},
		want: Line{Kind: KindInfo, Rank: -1, Env: envInfo("", 168, 1228, 2)},
	},
	{
		// The ':' that ends torchrun's label is the label's, not an empty host's.
		name: "label_colon_is_no_empty_host",
		in:   "[default0]:48211:48211 [0] NCCL INFO cudaDriverVersion 12020",
		want: Line{Kind: KindMalformed, Rank: 0, Reason: reasonNoEnvelope},
	},
	{
		name: "label_then_empty_host",
		in:   "[default0]::48211:48211 [0] NCCL INFO cudaDriverVersion 12020",
		want: Line{Kind: KindInfo, Rank: 0, Env: envInfo("", 48211, 48211, 0)},
	},
	{
		// mpirun's tag is no angle placeholder.
		name: "mpirun_tag_is_no_placeholder",
		in:   "[1,0]<stdout>:20311:20311 [0] NCCL INFO Connected all rings",
		want: Line{Kind: KindMalformed, Rank: 0, Reason: reasonNoEnvelope},
	},
	{
		// No envelope follows: a time after a label keeps its tokens.
		name: "label_then_time_is_no_envelope",
		in:   "[default0]:12:34:56 NCCL INFO Init COMPLETE",
		want: Line{Kind: KindMalformed, Rank: 0, Reason: reasonNoEnvelope},
	},
}

func TestRedactedHosts(t *testing.T) { checkLines(t, redactedHostCases) }

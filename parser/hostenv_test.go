package parser

import "testing"

// hostEnvCases are NCCL lines whose envelope names the host and device but no pid:tid, as
// some collectors print them (built from the ref §2.1 envelope with `:pid:tid` left out).
// The process is the host's, its pid and tid unknown (-1).
var hostEnvCases = []lineCase{
	{
		name: "host_only_warn_after_collector_and_nccl_times",
		in:   "2026-03-01T10:20:30.000000001Z [2026-03-01 18:20:30] node-a17 [3] misc/socket.cc:46 NCCL WARN socketProgressOpt: Call to send to 10.1.2.3<40000> failed : Connection reset by peer",
		time: Stamp{Nanos: 1772389230000000000, Form: StampNCCL}, // NCCL's, nearest the envelope
		want: Line{Kind: KindWarn, Rank: -1, Env: Envelope{Host: "node-a17", Pid: -1, Tid: -1, Dev: 3, Level: LevelWarn}},
	},
	{
		name: "host_only_info_after_collector_time",
		in:   "2026-03-01T10:20:30.000000002Z node-a17 [3] NCCL INFO misc/socket.cc:64 -> 6",
		time: Stamp{Nanos: 1772360430000000002, Form: StampISO, Digits: 9, Zoned: true},
		want: Line{Kind: KindInfo, Rank: -1, Env: Envelope{Host: "node-a17", Pid: -1, Tid: -1, Dev: 3, Level: LevelInfo}},
	},
	{
		name: "host_only_info_plain",
		in:   "node-a17 [3] NCCL INFO misc/socket.cc:64 -> 6",
		want: Line{Kind: KindInfo, Rank: -1, Env: Envelope{Host: "node-a17", Pid: -1, Tid: -1, Dev: 3, Level: LevelInfo}},
	},
	{
		name: "host_only_info_behind_mpi_label",
		in:   "[1,5]<stdout>:node-a17.cluster [0] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0>",
		want: Line{Kind: KindInfo, Rank: 5, Env: Envelope{Host: "node-a17.cluster", Pid: -1, Tid: -1, Dev: 0, Level: LevelInfo}},
	},
	{
		name: "host_only_warn_location",
		in:   "node-a17 [1] transport/net_ib.cc:1001 NCCL WARN NET/IB : Got completion with error 12",
		want: Line{Kind: KindWarn, Rank: -1, Env: Envelope{Host: "node-a17", Pid: -1, Tid: -1, Dev: 1, Level: LevelWarn}},
	},
	{
		// A collective without a pid cannot be tied to its process: it is read as before, a
		// record without its envelope.
		name: "host_only_collective_read_without_envelope",
		in:   "node-a17 [3] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x1 count 8 datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6",
		want: Line{Kind: KindCollective, Rank: -1, Coll: Collective{Op: "AllReduce", OpCount: 1, SendBuff: 1, RecvBuff: 1, Count: 8, Datatype: 7, Root: 0, Comm: 5, NRanks: 2, Stream: 6, Task: -1, GlobalRank: -1}, Spliced: true},
	},
	{
		name: "device_not_a_number_stays_malformed",
		in:   "node-a17 [x] NCCL INFO misc/socket.cc:64 -> 6",
		want: Line{Kind: KindMalformed, Rank: -1, Reason: reasonNoEnvelope},
	},
	{
		name: "host_not_a_host_name_stays_malformed",
		in:   "_node [1] NCCL INFO misc/socket.cc:64 -> 6",
		want: Line{Kind: KindMalformed, Rank: -1, Reason: reasonNoEnvelope},
	},
	{
		name: "level_glued_to_text_stays_malformed",
		in:   "node-a17 [1] NCCL INFO: misc/socket.cc:64 -> 6",
		want: Line{Kind: KindMalformed, Rank: -1, Reason: reasonNoEnvelope},
	},
	{
		// The tid of a head that interleaved output ate, not a host.
		name: "digits_before_device_stay_malformed",
		in:   "some text 4 [0] NCCL INFO Channel 11/0 : 3[3] -> 4[4] via P2P/IPC",
		want: Line{Kind: KindMalformed, Rank: -1, Reason: reasonNoEnvelope},
	},
	{
		name: "no_host_before_device_stays_malformed",
		in:   "[1] NCCL INFO misc/socket.cc:64 -> 6",
		want: Line{Kind: KindMalformed, Rank: -1, Reason: reasonNoEnvelope},
	},
	{
		// The tail of a time glued to it is no host: a head cut to its device behind a
		// collector's time stays without an envelope.
		name: "device_head_behind_time_is_no_host",
		in:   "2024-05-01T10:00:00Z [1] misc/shmutils.cc:103 NCCL WARN Cuda failure 'invalid argument'",
		time: Stamp{Nanos: 1714557600000000000, Form: StampISO, Zoned: true},
		want: Line{Kind: KindMalformed, Rank: -1, Reason: reasonNoEnvelope},
	},
	{
		// A container log's stream tag is no host: behind it a head cut to its device stays
		// without an envelope (the F of `stdout F` is the CRI's full-line tag).
		name: "device_head_behind_cri_tag_is_no_host",
		in:   "2024-05-01T10:00:00Z stdout F [3] NCCL INFO Channel 00/0 : 3[3] -> 0[0] via P2P/IPC",
		time: Stamp{Nanos: 1714557600000000000, Form: StampISO, Zoned: true},
		want: Line{Kind: KindMalformed, Rank: -1, Reason: reasonNoEnvelope},
	},
	{
		name: "device_head_behind_cri_partial_tag_is_no_host",
		in:   "stderr P [0] misc/socket.cc:46 NCCL WARN socketProgressOpt: Call to recv failed : Connection reset by peer",
		want: Line{Kind: KindMalformed, Rank: -1, Reason: reasonNoEnvelope},
	},
	{
		// A host of one letter elsewhere is still a host.
		name: "one_letter_host_not_after_a_stream_name",
		in:   "output F [3] NCCL INFO misc/socket.cc:64 -> 6",
		want: Line{Kind: KindInfo, Rank: -1, Env: Envelope{Host: "F", Pid: -1, Tid: -1, Dev: 3, Level: LevelInfo}},
	},
}

func TestHostOnlyEnvelope(t *testing.T) { checkLines(t, hostEnvCases) }

// TestHostOnlyEnvelopeScanned holds the scanner to answering the common host-only lines
// itself: a log printed so has nothing else, and the grammar reads tens of MB/s.
func TestHostOnlyEnvelopeScanned(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range hostEnvCases[:5] {
		var l Line
		if !p.Scan([]byte(c.in), &l) {
			t.Errorf("the scanner leaves %q to the grammar", c.in)
		}
	}
}

package parser

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Collective lines that carry a `key value` field nccllog does not know: the call is kept and
// the first such key is recorded in Line.UnknownKey. Lines are built from the RCCL 2.27 form
// in ../../shared/framework-lines.md ("RCCL 2.27+ collective lines") and the 2.22+ format of
// ../../shared/nccl-log-format.md §2.1.

// rccl227 returns the collective RCCL 2.27 prints (framework-lines.md) with the text
// between recvbuff's value and " count" replaced by mid.
func rccl227(mid string) string {
	return "host:1234:1240 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x7f5e0c000000 recvbuff 0x7f5e0c000000" + mid +
		" count 1 datatype 7 op 0 root 0 comm 0x55d3c8a0 [nranks=2] stream 0x55d3c9b0 task 0 globalrank 0"
}

var rccl227Coll = Collective{Op: "AllReduce", OpCount: 3, SendBuff: 0x7f5e0c000000, RecvBuff: 0x7f5e0c000000,
	Count: 1, Datatype: 7, RedOp: 0, Root: 0, Comm: 0x55d3c8a0, NRanks: 2, Stream: 0x55d3c9b0, Task: 0, GlobalRank: 0}

// ref22 is the §2.1 example (2.22+) with extra put in front of the field named at.
func ref22(at, extra string) string {
	l := "gpu-node-07:48211:48211 [0] NCCL INFO AllReduce: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=16] stream 0x55d4c1f3a2b0"
	return strings.Replace(l, " "+at, extra+" "+at, 1)
}

var ref22Coll = Collective{Op: "AllReduce", OpCount: 0x1a3, SendBuff: 0x7f3a1c000000, RecvBuff: 0x7f3a1c000000,
	Count: 1048576, Datatype: 7, RedOp: 0, Root: 0, Comm: 0x55d4c2a8e0f0, NRanks: 16, Stream: 0x55d4c1f3a2b0, Task: -1, GlobalRank: -1}

var ref22Env = envInfo("gpu-node-07", 48211, 48211, 0)

func ref22Line(key string) Line {
	return Line{Kind: KindCollective, Rank: -1, Env: ref22Env, Coll: ref22Coll, UnknownKey: key}
}

var unknownFieldCases = []lineCase{
	{
		// framework-lines.md: RCCL 2.27's acc field between recvbuff and count.
		name: "rccl_2.27_acc_nil",
		in:   rccl227(" acc (nil)"),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("host", 1234, 1240, 0), Coll: rccl227Coll, UnknownKey: "acc"},
	},
	{
		// built: the same field holding a pointer.
		name: "rccl_2.27_acc_pointer",
		in:   rccl227(" acc 0x7f5e0d000000"),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("host", 1234, 1240, 0), Coll: rccl227Coll, UnknownKey: "acc"},
	},
	{
		// built: with torchrun's prefix in front.
		name: "rccl_2.27_acc_torchrun_prefix",
		in:   "[rank5]:" + rccl227(" acc (nil)"),
		want: Line{Kind: KindCollective, Rank: 5, Env: envInfo("host", 1234, 1240, 0), Coll: rccl227Coll, UnknownKey: "acc"},
	},
	{name: "extra_before_sendbuff", in: ref22("sendbuff", " seq 12"), want: ref22Line("seq")},
	{name: "extra_before_count_negative", in: ref22("count", " acc -1"), want: ref22Line("acc")},
	{name: "extra_before_datatype", in: ref22("datatype", " elemSize 2"), want: ref22Line("elemSize")},
	{name: "extra_before_op", in: ref22("op ", " algo ring"), want: ref22Line("algo")},
	{name: "extra_before_root", in: ref22("root", " scale 1.5"), want: ref22Line("scale")},
	{name: "extra_before_comm", in: ref22("comm", " win (nil)"), want: ref22Line("win")},
	{name: "extra_before_nranks", in: ref22("[nranks", " rank 3"), want: ref22Line("rank")},
	{name: "two_extras_first_kept", in: ref22("count", " acc (nil) flags 0x1"), want: ref22Line("acc")},
	{name: "extras_in_two_places_first_kept", in: strings.Replace(ref22("count", " acc (nil)"), " comm ", " hint 7 comm ", 1), want: ref22Line("acc")},
	{
		// built: RCCL's suffix with a field before task and one between task and globalrank.
		name: "extra_in_rccl_suffix",
		in:   "mi300-03:5512:5512 [2] NCCL INFO AllReduce: opCount 1a4 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 4194304 datatype 9 op 0 root 0 comm 0x55d4c2a8e0f0 [nranks=8] stream 0x55d4c1f3a2b0 group 1 task 3 slot 0 globalrank 2",
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("mi300-03", 5512, 5512, 2),
			Coll: Collective{Op: "AllReduce", OpCount: 0x1a4, SendBuff: 0x7f3a1c000000, RecvBuff: 0x7f3a1c000000,
				Count: 4194304, Datatype: 9, RedOp: 0, Root: 0, Comm: 0x55d4c2a8e0f0, NRanks: 8,
				Stream: 0x55d4c1f3a2b0, Task: 3, GlobalRank: 2}, UnknownKey: "group"},
	},
	{
		// built: text after the stream that is no RCCL suffix stays trailing text, as before.
		name: "trailing_pair_after_stream_is_not_a_field",
		in:   ref22("stream", "") + " acc 1",
		want: ref22Line(""),
	},
	// Negatives: a known field out of its place, a repeated field, an extra field whose value
	// is not one token, a field where the stream should be: still malformed.
	{name: "known_key_out_of_order", in: ref22("count", " datatype 7"), want: Line{Kind: KindMalformed, Rank: -1, Env: ref22Env, Reason: "unreadable collective line: "}},
	{name: "extra_without_value", in: ref22("count", " acc"), want: Line{Kind: KindMalformed, Rank: -1, Env: ref22Env, Reason: "unreadable collective line: "}},
	{name: "extra_value_two_tokens", in: ref22("count", " acc [x]"), want: Line{Kind: KindMalformed, Rank: -1, Env: ref22Env, Reason: "unreadable collective line: "}},
	{name: "extra_between_nranks_and_stream", in: ref22("stream", " acc 1"), want: Line{Kind: KindMalformed, Rank: -1, Env: ref22Env, Reason: "unreadable collective line: "}},
}

func TestUnknownFieldLines(t *testing.T) { checkLines(t, unknownFieldCases) }

// TestUnknownFieldTails feeds one scanner lines whose kept tails (from " op " on) hold, or
// do not hold, an unknown field: every answer must be the grammar's.
func TestUnknownFieldTails(t *testing.T) {
	const head = "h:1:2 [0] NCCL INFO AllGather: opCount 1b sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000"
	const body = " count 16 datatype 1"
	const tail = " op 0 root 0 comm 0x55aa [nranks=2] stream 0x55bb"
	const tailX = " op 0 root 0 hint 4 comm 0x55aa [nranks=2] stream 0x55bb"
	seqs := map[string][]string{
		"head extra, then none":   {head + " acc (nil)" + body + tail, head + body + tail},
		"tail extra, then head":   {head + body + tailX, head + " acc (nil)" + body + tailX, head + body + tailX},
		"tail extra, then plain":  {head + body + tailX, head + body + tail, head + body + tailX},
		"extra then rccl suffix":  {head + " acc (nil)" + body + tail + " task 0 globalrank 1", head + body + tail + " task 0 globalrank 1"},
		"extra changes its value": {head + " acc (nil)" + body + tail, head + " acc 0x7f00" + body + tail, head + " acc 0x7f00" + body + tail},
	}
	for name, lines := range seqs {
		p, err := NewParser()
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range lines {
			want := p.Grammar().Parse([]byte(line))
			if want.Kind != KindCollective {
				t.Errorf("%s, line %d: grammar reads %v, want a collective: %q", name, i+1, want.Kind, line)
			}
			var fast Line
			if !p.Scan([]byte(line), &fast) {
				t.Errorf("%s, line %d: the scanner defers on a plain form: %q", name, i+1, line)
				continue
			}
			if diff := cmp.Diff(want, fast); diff != "" {
				t.Errorf("%s, line %d: scanner and grammar disagree (-grammar +scanner):\n%s\n%q", name, i+1, diff, line)
			}
		}
	}
}

// TestBuffersAndCountReadsAcc: RCCL 2.27's common form, with ` acc (nil)` or ` acc 0x…`
// after recvbuff, is read in one go, as every collective line of such a log has it.
func TestBuffersAndCountReadsAcc(t *testing.T) {
	for _, acc := range []string{" acc (nil)", " acc 0x7f5e0d000000"} {
		line := rccl227(acc)
		msg := line[strings.Index(line, "AllReduce: "):]
		var c Collective
		at := len("AllReduce: opCount 3")
		end, extra, ok := buffersAndCount([]byte(msg), at, &c)
		if !ok || string(extra) != "acc" || msg[end:end+len(" op ")] != " op " ||
			c.SendBuff != rccl227Coll.SendBuff || c.RecvBuff != rccl227Coll.RecvBuff || c.Count != 1 || c.Datatype != 7 {
			t.Errorf("buffersAndCount(%q) = %d, %q, %v, %+v", msg, end, extra, ok, c)
		}
	}
}

package parser

import (
	"strings"
	"testing"
)

// Collective records as people paste them (pointers redacted, an extra bracketed field,
// no envelope, no stream) and as processes glue them onto other text (an nccl-tests perf
// row, another record). Built from the §2.1 format string of the reference and the
// nccl-tests row format (`%12li  %12li  %8s  %6s  %6i`, then `  %7s  %6.2f  %6.2f  %5s` per
// pass), with which NCCL's records share one stdout.

// tfLine is the TF sample's collective (issue-nccl203), the line the glued cases start from.
const tfLine = "gpu1:13135:13135 [0] NCCL INFO AllReduce: opCount 1a sendbuff 0x10048f82700 recvbuff 0x10048f82800 count 64 datatype 7 op 0 root 0 comm 0x7f0c741162f0 [nranks=2] stream 0x7f0c74002f00"

// tfRecord is tfLine without its envelope.
var tfRecord = tfLine[strings.Index(tfLine, "AllReduce"):]

var tfColl = Collective{Op: "AllReduce", OpCount: 0x1a, SendBuff: 0x10048f82700, RecvBuff: 0x10048f82800,
	Count: 64, Datatype: Fp32, Comm: 0x7f0c741162f0, NRanks: 2, Stream: 0x7f0c74002f00, Task: -1, GlobalRank: -1}

// tfWith returns tfColl with unread pointers.
func tfWith(unread PtrFields) Collective {
	c := tfColl
	c.Unread = unread
	if unread&PtrSend != 0 {
		c.SendBuff = 0
	}
	if unread&PtrRecv != 0 {
		c.RecvBuff = 0
	}
	if unread&PtrComm != 0 {
		c.Comm = 0
	}
	if unread&PtrStream != 0 {
		c.Stream = 0
	}
	return c
}

var tfEnv = envInfo("gpu1", 13135, 13135, 0)

// redacted puts text in every pointer field of tfLine.
func redacted(text string) string {
	r := strings.NewReplacer("0x10048f82700", text, "0x10048f82800", text, "0x7f0c741162f0", text, "0x7f0c74002f00", text)
	return r.Replace(tfLine)
}

const allPtrs = PtrSend | PtrRecv | PtrComm | PtrStream

var pastedCases = []lineCase{
	// --- pointers redacted by the poster: any text without white space ---
	{name: "redacted_PTR", in: redacted("<PTR>"), want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfWith(allPtrs)}},
	{name: "redacted_0x_dots", in: redacted("0x..."), want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfWith(allPtrs)}},
	{name: "redacted_XXX", in: redacted("XXX"), want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfWith(allPtrs)}},
	{name: "redacted_angle_word", in: redacted("<redacted>"), want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfWith(allPtrs)}},
	{name: "redacted_bracket_ptr", in: redacted("[ptr]"), want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfWith(allPtrs)}},
	{name: "redacted_hpt_like", in: redacted("a:1:2"), want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfWith(allPtrs)}},
	{
		name: "redacted_comm_only",
		in:   strings.Replace(tfLine, "comm 0x7f0c741162f0", "comm <PTR>", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfWith(PtrComm)},
	},
	{
		// built: the srun collective with a pointer that is not %p.
		name: "srun_sendbuff_not_pointer",
		in:   "1: node-3:278:278 [0] NCCL INFO AllGather: opCount 1606 sendbuff 93fd44a00 recvbuff 0x96d44e200 count 2359808 datatype 7 op 0 root 0 comm 0x555e2c6387e0 [nranks=4] stream 0x555e2b3a4370",
		want: Line{Kind: KindCollective, Rank: 1, Env: envInfo("node-3", 278, 278, 0), Coll: Collective{Op: "AllGather",
			OpCount: 0x1606, RecvBuff: 0x96d44e200, Count: 2359808, Datatype: Fp32, Comm: 0x555e2c6387e0, NRanks: 4,
			Stream: 0x555e2b3a4370, Task: -1, GlobalRank: -1, Unread: PtrSend}},
	},
	{
		name: "redacted_pointer_with_space_is_malformed",
		in:   redacted("<my ptr>"),
		want: Line{Kind: KindMalformed, Rank: -1, Env: tfEnv, Reason: "unreadable collective line: "},
	},

	// --- an extra bracketed field after the level ---
	{
		name: "bracket_field_after_level",
		in:   strings.Replace(tfLine, "INFO AllReduce", "INFO [2] AllReduce", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfColl},
	},
	{
		name: "bracket_words_after_level",
		in:   strings.Replace(tfLine, "INFO AllReduce", "INFO [Rank 0:1] AllReduce", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfColl},
	},

	// --- no stream: the line ends at [nranks=] ---
	{
		// built: the TF collective cut by the excerpt window (no stream field).
		name: "collective_cut_before_stream",
		in:   "gpu1:13135:13923 [1] NCCL INFO AllReduce: opCount 1d sendbuff 0x107b55ef400 recvbuff 0x107b55f7400 count 8192 datatype 7 op 0 root 0 comm 0x7f0c7410f0e0 [nranks=2]",
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("gpu1", 13135, 13923, 1), Coll: Collective{Op: "AllReduce",
			OpCount: 0x1d, SendBuff: 0x107b55ef400, RecvBuff: 0x107b55f7400, Count: 8192, Datatype: Fp32,
			Comm: 0x7f0c7410f0e0, NRanks: 2, Task: -1, GlobalRank: -1, Unread: PtrStream}},
	},
	{
		// fuzz (CI): white space after [nranks=] once made the grammar panic.
		name: "collective_cut_before_stream_trailing_space",
		in:   strings.TrimSuffix(tfLine, " stream 0x7f0c74002f00") + " ",
		want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfWith(PtrStream)},
	},
	{
		name: "collective_cut_before_stream_trailing_tab",
		in:   strings.TrimSuffix(tfLine, " stream 0x7f0c74002f00") + "\t",
		want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfWith(PtrStream)},
	},
	{
		name: "stream_missing_then_text_is_malformed",
		in:   strings.TrimSuffix(tfLine, " stream 0x7f0c74002f00") + " and more",
		want: Line{Kind: KindMalformed, Rank: -1, Env: tfEnv, Reason: "unreadable collective line: "},
	},

	// --- records without an envelope: no process ---
	{name: "record_without_envelope", in: tfRecord, want: Line{Kind: KindCollective, Rank: -1, Coll: tfColl}},
	{name: "srun_record_without_envelope", in: "3: " + tfRecord, want: Line{Kind: KindCollective, Rank: 3, Coll: tfColl}},
	{
		name: "harness_record_without_stream",
		in:   "NCCL INFO " + strings.TrimSuffix(tfRecord, " stream 0x7f0c74002f00"),
		want: Line{Kind: KindCollective, Rank: -1, Coll: tfWith(PtrStream)},
	},
	{
		name: "harness_record_redacted",
		in:   "NCCL INFO " + strings.ReplaceAll(strings.TrimSuffix(tfRecord, " stream 0x7f0c74002f00"), "0x", "0x..."),
		want: Line{Kind: KindCollective, Rank: -1, Coll: tfWith(allPtrs)},
	},
	{
		name: "record_without_envelope_bracket_field",
		in:   "[2] " + tfRecord,
		want: Line{Kind: KindCollective, Rank: -1, Coll: tfColl},
	},

	// --- records glued onto other text ---
	{
		name: "nccltests_row_root_glued",
		in:   "           8             2     float     sum      -1" + tfLine,
		want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfColl},
	},
	{
		name: "nccltests_row_wrong_glued",
		in:   "    12.10    0.00    0.00      0" + tfLine,
		want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfColl},
	},
	{
		name: "nccltests_row_na_glued",
		in:   "    12.10    0.00    0.00    N/A" + tfLine,
		want: Line{Kind: KindCollective, Rank: -1, Env: tfEnv, Coll: tfColl},
	},
	{
		name: "nccltests_row_record_without_envelope",
		in:   "    12.10    0.00    0.00      0" + tfRecord,
		want: Line{Kind: KindCollective, Rank: -1, Spliced: true, Coll: tfColl},
	},
	{
		name: "record_glued_to_record_with_envelope",
		in:   strings.Replace(tfLine, "[0]", "[1]", 1) + tfLine,
		want: Line{Kind: KindCollective, Rank: -1, Spliced: true, Env: tfEnv, Coll: tfColl},
	},
	{
		name: "record_glued_to_record_without_envelope",
		in:   tfLine + tfRecord,
		want: Line{Kind: KindCollective, Rank: -1, Spliced: true, Coll: tfColl},
	},
	{
		name: "record_after_record_without_envelope",
		in:   tfLine + " " + tfRecord,
		want: Line{Kind: KindCollective, Rank: -1, Spliced: true, Coll: tfColl},
	},
	{
		// A host of its own that starts with digits (a container id) keeps them where nothing
		// but prefixes stands before its envelope.
		name: "digit_host_at_line_start",
		in:   strings.Replace(tfLine, "gpu1:", "3f4e5d6c7b8a:", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("3f4e5d6c7b8a", 13135, 13135, 0), Coll: tfColl},
	},
	{
		// Nor does it lose them behind a time, a label or a quote that is not a prefix.
		name: "digit_host_after_time",
		in:   "12:00:00.123 " + strings.Replace(tfLine, "gpu1:", "3f4e5d6c7b8a:", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("3f4e5d6c7b8a", 13135, 13135, 0), Coll: tfColl},
	},
	{
		name: "digit_host_after_stamp",
		in:   "2024-05-01 12:00:00 " + strings.Replace(tfLine, "gpu1:", "3f4e5d6c7b8a:", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("3f4e5d6c7b8a", 13135, 13135, 0), Coll: tfColl},
		time: Stamp{Nanos: 1714564800000000000, Form: StampISO},
	},
	{
		name: "digit_host_after_epoch",
		in:   "1714567890.123 " + strings.Replace(tfLine, "gpu1:", "3f4e5d6c7b8a:", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("3f4e5d6c7b8a", 13135, 13135, 0), Coll: tfColl},
	},
	{
		name: "digit_host_after_label",
		in:   "worker-1: " + strings.Replace(tfLine, "gpu1:", "3f4e5d6c7b8a:", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("3f4e5d6c7b8a", 13135, 13135, 0), Coll: tfColl},
	},
	{
		name: "digit_host_after_container_stream",
		in:   "2024-05-01T12:00:00.123456789Z stdout F " + strings.Replace(tfLine, "gpu1:", "3f4e5d6c7b8a:", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("3f4e5d6c7b8a", 13135, 13135, 0), Coll: tfColl},
		time: Stamp{Nanos: 1714564800123456789, Form: StampISO, Digits: 9, Zoned: true},
	},
	{
		name: "digit_host_after_level",
		in:   "worker INFO " + strings.Replace(tfLine, "gpu1:", "3f4e5d6c7b8a:", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("3f4e5d6c7b8a", 13135, 13135, 0), Coll: tfColl},
	},
	{
		// A record cut short before another process's head gives it its last value back.
		name: "record_value_run_into_host",
		in:   strings.TrimSuffix(tfLine, " [nranks=2] stream 0x7f0c74002f00")[:strings.Index(tfLine, " datatype")] + tfLine,
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("gpu1", 13135, 13135, 0), Coll: tfColl, Spliced: true},
	},
	{
		name: "digit_host_after_quote",
		in:   `"` + strings.Replace(tfLine, "gpu1:", "3f4e5d6c7b8a:", 1),
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("3f4e5d6c7b8a", 13135, 13135, 0), Coll: tfColl},
	},
	{
		// A row's number run into a host does not stay with it.
		name: "number_run_into_host",
		in:   "    12.10    0.00    0.00      0" + tfLine,
		want: Line{Kind: KindCollective, Rank: -1, Env: envInfo("gpu1", 13135, 13135, 0), Coll: tfColl},
	},
	{
		name: "digit_host_after_prefix",
		in:   "[1,0]<stdout>: " + strings.Replace(tfLine, "gpu1:", "0gpu1:", 1),
		want: Line{Kind: KindCollective, Rank: 0, Env: envInfo("0gpu1", 13135, 13135, 0), Coll: tfColl},
	},
}

func TestPastedLines(t *testing.T) { checkLines(t, pastedCases) }

// TestScannerReadsPastedRecords: a log pasted whole in one of these shapes (every pointer
// redacted, every record tagged, no envelope, a harness's `NCCL INFO` lines) is read by the
// scanner, not line by line by the grammar (hundreds of microseconds a line).
func TestScannerReadsPastedRecords(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"redacted_PTR", "redacted_0x_dots", "redacted_comm_only", "bracket_field_after_level",
		"collective_cut_before_stream", "record_without_envelope", "srun_record_without_envelope",
		"harness_record_without_stream", "harness_record_redacted"} {
		var c *lineCase
		for i := range pastedCases {
			if pastedCases[i].name == name {
				c = &pastedCases[i]
			}
		}
		var l Line
		if c == nil || !p.Scan([]byte(c.in), &l) {
			t.Errorf("%s: the scanner leaves the line to the grammar", name)
		}
	}
}

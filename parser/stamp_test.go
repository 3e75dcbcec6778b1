package parser

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// wall is the Stamp of a wall-clock time printed in form, given as RFC 3339 (with the
// fraction digits the line printed): UTC for forms without a zone (their local reading as if
// UTC) and year 2000 for forms without a year. It reads the time with package time, not with
// the parser's own arithmetic.
func wall(form StampForm, rfc string, zoned bool) Stamp {
	t, err := time.Parse(time.RFC3339Nano, rfc)
	if err != nil {
		panic(err)
	}
	digits := 0
	if _, frac, ok := strings.Cut(rfc, "."); ok {
		digits = strings.IndexAny(frac, "Z+-")
	}
	return Stamp{Nanos: t.UnixNano(), Form: form, Digits: uint8(digits), Zoned: zoned}
}

// sinceInit is the Stamp of a TRACE line's `ms` (milliseconds since init, as printed).
func sinceInit(ms string, digits uint8) Stamp {
	whole, frac, _ := strings.Cut(ms, ".")
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt((frac + "000000")[:6], 10, 64)
	return Stamp{Nanos: w*1e6 + f, Form: StampTrace, Digits: digits}
}

// stampCase is a line and the time it carries.
type stampCase struct {
	name string
	in   string
	want Stamp
}

const info = "gpu-node-07:48211:48211 [0] NCCL INFO Bootstrap : Using eth0:10.12.0.7<0>"

var stampCases = []stampCase{
	// NCCL's own forms (ref §1.4).
	{"nccl_default", "[2025-06-11 14:03:27] " + info, wall(StampNCCL, "2025-06-11T14:03:27Z", false)},
	{"nccl_6f", "[2025-06-11 14:03:27.512034] " + info, wall(StampNCCL, "2025-06-11T14:03:27.512034Z", false)},
	{"nccl_1f", "[2025-06-11 14:03:27.5] " + info, wall(StampNCCL, "2025-06-11T14:03:27.5Z", false)},
	{"nccl_9f", "[2025-06-11 14:03:27.123456789] " + info, wall(StampNCCL, "2025-06-11T14:03:27.123456789Z", false)},
	{"nccl_no_trailing_space", "[2025-06-11 14:03:27]" + info, wall(StampNCCL, "2025-06-11T14:03:27Z", false)},
	{"nccl_custom_unbracketed", "2025-06-11 14:03:27 " + info, wall(StampISO, "2025-06-11T14:03:27Z", false)},
	{"nccl_custom_unbracketed_3f", "2025-06-11 14:03:27.512 " + info, wall(StampISO, "2025-06-11T14:03:27.512Z", false)},
	{"nccl_leap_day", "[2024-02-29 00:00:00] " + info, wall(StampNCCL, "2024-02-29T00:00:00Z", false)},
	// Collectors.
	{"k8s_nanos_z", "2025-06-11T14:03:27.512034123Z " + info, wall(StampISO, "2025-06-11T14:03:27.512034123Z", true)},
	{"k8s_cri_stream", "2025-06-11T14:03:27.512034123Z stdout F " + info, wall(StampISO, "2025-06-11T14:03:27.512034123Z", true)},
	{"iso_offset_colon", "2025-06-11T16:03:27+02:00 " + info, wall(StampISO, "2025-06-11T14:03:27Z", true)},
	{"iso_offset_plain", "2025-06-11T09:33:27-0430 " + info, wall(StampISO, "2025-06-11T14:03:27Z", true)},
	{"iso_t_no_zone", "2025-06-11T14:03:27 " + info, wall(StampISO, "2025-06-11T14:03:27Z", false)},
	{"iso_space_zone", "2025-06-11 14:03:27.5Z " + info, wall(StampISO, "2025-06-11T14:03:27.5Z", true)},
	{"slash_go_log", "2025/06/11 14:03:27 " + info, wall(StampSlash, "2025-06-11T14:03:27Z", false)},
	{"slash_micro", "2025/06/11 14:03:27.000123 some text", wall(StampSlash, "2025-06-11T14:03:27.000123Z", false)},
	{"bracketed_iso_z", "[2025-06-11T14:03:27.48675097Z] " + info, wall(StampBracketed, "2025-06-11T14:03:27.48675097Z", true)},
	{"bracketed_slash", "[2025/06/11 14:03:27] " + info, wall(StampBracketed, "2025-06-11T14:03:27Z", false)},
	{"bracketed_pylog", "[2025-06-11 14:03:27,512] INFO starting", wall(StampBracketed, "2025-06-11T14:03:27.512Z", false)},
	{"syslog", "Jun 11 14:03:27 " + info, wall(StampSyslog, "2000-06-11T14:03:27Z", false)},
	{"syslog_padded_day", "Jun  1 14:03:27 node7 kernel: NVRM: Xid", wall(StampSyslog, "2000-06-01T14:03:27Z", false)},
	{"ts_fraction", "Feb 29 14:03:27.250000 " + info, wall(StampSyslog, "2000-02-29T14:03:27.250000Z", false)},
	{"glog_bare", "E1016 03:31:38.928019 12345 ProcessGroupNCCL.cpp:607] Watchdog caught collective operation timeout", wall(StampGlog, "2000-10-16T03:31:38.928019Z", false)},
	{"glog_torchrun", "[rank3]:[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog", wall(StampGlog, "2000-10-16T03:31:38.928019586Z", false)},
	{"glog_c10_unpadded_month", "[W227 16:30:43.526290891 ProcessGroupNCCL.cpp:1785] text", wall(StampGlog, "2000-02-27T16:30:43.526290891Z", false)},
	{"pylog", "2025-06-11 14:03:27,512 - root - INFO - step 10", wall(StampPylog, "2025-06-11T14:03:27.512Z", false)},
	{"trace_ms", "gpu-node-07:48211:48211 [0] 1843.225104 initTransportsRank:1484 NCCL TRACE rank 0 nranks 16", sinceInit("1843.225104", 6)},
	{"trace_under_wall", "[2025-06-11 14:03:27] gpu-node-07:48211:48211 [0] 1843.225104 initTransportsRank:1484 NCCL TRACE x", wall(StampNCCL, "2025-06-11T14:03:27Z", false)},
	// Innermost: the time nearest the envelope, through launcher prefixes.
	{"collector_srun_nccl", "2025-06-11T14:03:29.000000001Z 3: [2025-06-11 14:03:27] " + info, wall(StampNCCL, "2025-06-11T14:03:27Z", false)},
	{"collector_then_srun", "2025-06-11T14:03:29Z  3: " + info, wall(StampISO, "2025-06-11T14:03:29Z", true)},
	{"srun_then_nccl", "  3: [2025-06-11 14:03:27] " + info, wall(StampNCCL, "2025-06-11T14:03:27Z", false)},
	{"mpirun_then_nccl", "[1,3]<stdout>:[2025-06-11 14:03:27.5] " + info, wall(StampNCCL, "2025-06-11T14:03:27.5Z", false)},
	{"torchrun_then_nccl", "[rank3]: [2025-06-11 14:03:27] " + info, wall(StampNCCL, "2025-06-11T14:03:27Z", false)},
	{"label_then_glog", "[trainer0|0]:[E0519 11:02:00.010000 ProcessGroupNCCL.cpp:2168] [PG ID 1 PG GUID 1 Rank 6] Watchdog", wall(StampGlog, "2000-05-19T11:02:00.010000Z", false)},
	{"label_then_nccl", "[worker_2|12]: [2025-06-11 14:03:27] " + info, wall(StampNCCL, "2025-06-11T14:03:27Z", false)},
	{"ray_then_nccl", "(RayWorker pid=615, ip=10.72.7.6) [2025-06-11 14:03:27] " + info, wall(StampNCCL, "2025-06-11T14:03:27Z", false)},
	{"skypilot_then_nccl", "(worker1, rank=1, pid=2634, ip=10.0.0.2) [2025-06-11 14:03:27] " + info, wall(StampNCCL, "2025-06-11T14:03:27Z", false)},
	{"nccl_then_progress", "[2025-04-13 23:41:12] iteration       10/    1000 | consumed samples: 10", wall(StampNCCL, "2025-04-13T23:41:12Z", false)},
	// Untimed: nothing is read from text after the head, or from what is no time.
	{"untimed_info", info, Stamp{}},
	{"time_in_message", "gpu-node-07:48211:48211 [0] NCCL INFO at 2025-06-11 14:03:27 done", Stamp{}},
	{"time_after_text", "hello 2025-06-11 14:03:27 " + info, Stamp{}},
	{"month_13", "[2025-13-11 14:03:27] " + info, Stamp{}},
	{"feb_30", "[2025-02-30 14:03:27] " + info, Stamp{}},
	{"feb_29_common_year", "[2025-02-29 14:03:27] " + info, Stamp{}},
	{"day_0", "2025-06-00T14:03:27Z " + info, Stamp{}},
	{"hour_25", "[2025-06-11 25:03:27] " + info, Stamp{}},
	{"hour_24", "2025-06-11 24:00:00 " + info, Stamp{}},
	{"minute_60", "2025-06-11 14:60:27 " + info, Stamp{}},
	{"second_61", "Jun 11 14:03:61 " + info, Stamp{}},
	{"glog_month_13", "E1316 03:31:38.928019 12 x.cc:1] y", Stamp{}},
	{"glog_feb_30", "[E230 03:31:38.928019 x.cc:1] y", Stamp{}},
	{"syslog_bad_month", "Jux 11 14:03:27 " + info, Stamp{}},
	{"year_before_1970", "1969-12-31 23:59:59 " + info, Stamp{}},
	{"ten_fraction_digits", "2025-06-11 14:03:27.1234567890 " + info, Stamp{}},
	{"glued_to_host", "2025-06-11 14:03:27gpu-node-07:48211:48211 [0] NCCL INFO x", Stamp{}},
	{"bracket_unclosed", "[2025-06-11 14:03:27 " + info, Stamp{}},
	{"bracket_trailing_text", "[2025-06-11 14:03:27 UTC] " + info, Stamp{}},
	{"epoch_seconds_not_read", "1749650607 " + info, Stamp{}},
	{"srun_label_not_time", "14: " + info, Stamp{}},
	{"pylog_slash_comma", "2025/06/11 14:03:27,512 text", Stamp{}},
	{"truncated", "[2025-06-11 14:03", Stamp{}},
	{"four_digits_only", "2025", Stamp{}},
	{"digits_only", "20250611", Stamp{}},
	{"capital_and_three", "Jun ", Stamp{}},
	{"trace_ms_garbled", "gpu-node-07:48211:48211 [0] 18x43.2 initTransportsRank:1484 NCCL TRACE rank 0", Stamp{}},
}

// TestStamps reads each form through the grammar, the Parser and (where it answers) the
// scanner: the Time must be exact, and the scanner's whole Line must equal the grammar's.
func TestStamps(t *testing.T) {
	g, err := NewGrammar()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range stampCases {
		t.Run(c.name, func(t *testing.T) {
			line := []byte(c.in)
			gram := g.Parse(line)
			if gram.Time != c.want {
				t.Errorf("Grammar.Parse(%q).Time = %+v, want %+v", c.in, gram.Time, c.want)
			}
			p, _ := NewParser()
			var got Line
			for i := 0; i < 3; i++ {
				p.Parse(line, &got)
				if got != gram {
					t.Errorf("Parser.Parse(%q) = %+v, grammar %+v", c.in, got, gram)
				}
			}
			if p.Scan(line, &got) && got != gram {
				t.Errorf("Parser.Scan(%q) = %+v, grammar %+v", c.in, got, gram)
			}
		})
	}
}

// TestStampsKeepKind holds each timed line's class and fields to those of the same line
// without its time where the time is NCCL's own or a collector's prefix: reading the time
// changes nothing else.
func TestStampsKeepKind(t *testing.T) {
	g, _ := NewGrammar()
	for _, c := range stampCases {
		head, rest, ok := strings.Cut(c.in, info)
		if !ok || c.want.IsZero() || head == "" || strings.ContainsAny(head, "()") || strings.Contains(head, ":") && !strings.Contains(head, "-") {
			continue
		}
		got, want := g.Parse([]byte(c.in)), g.Parse([]byte(info+rest))
		got.Time, want.Rank = Stamp{}, got.Rank
		if got != want {
			t.Errorf("%s: %q reads %+v, untimed %+v", c.name, c.in, got, want)
		}
	}
}

func TestStampFormText(t *testing.T) {
	for f := StampNone; f < numStampForms; f++ {
		b, _ := f.MarshalText()
		if string(b) != f.String() || f.String() == "unknown" {
			t.Errorf("form %d: %q / %q", f, b, f.String())
		}
	}
	if StampForm(200).String() != "unknown" {
		t.Error("an unknown form has a name")
	}
	if (Stamp{Form: StampGlog}).HasYear() || !(Stamp{Form: StampISO}).HasYear() {
		t.Error("HasYear")
	}
}

// stampSeedLines is every stamp case's line, for the agreement fuzz targets' corpus.
func stampSeedLines() []string {
	var out []string
	for _, c := range stampCases {
		out = append(out, c.in)
	}
	return out
}

// FuzzStampsAgree fuzzes the head of a line (launcher prefixes and times) in front of an
// NCCL WARN line and of free text, seeded with every stamp case's head,
// and holds the scanner to the grammar on each, and the grammar's gate to the grammar
// ungated; a time read is a real date and clock.
func FuzzStampsAgree(f *testing.F) {
	for _, c := range stampCases {
		head, _, _ := strings.Cut(c.in, "gpu-node-07")
		f.Add(head)
	}
	p, err := NewParser()
	if err != nil {
		f.Fatal(err)
	}
	tails := []string{"gpu-node-07:48211:48390 [0] misc/socket.cc:484 NCCL WARN x", "loader: epoch 0 batch 1"}
	f.Fuzz(func(t *testing.T, head string) {
		for _, tail := range tails {
			line := []byte(head + tail)
			checkAgreement(t, p, line)
			checkHeadTimeGate(t, p.Grammar(), line)
			st := p.Grammar().Parse(line).Time
			if st.Form == StampNone || st.Form == StampTrace {
				continue
			}
			tm := time.Unix(0, st.Nanos).UTC()
			if st.Digits > 9 || tm.Year() < 1969 || tm.Year() > 2201 || !st.HasYear() && tm.Year() != noYear {
				t.Errorf("%q: time %+v (%s)", line, st, tm)
			}
		}
	})
}

package parser

import (
	"strconv"
	"testing"
)

// Progress lines as torchtitan prints them by default: every field coloured with ANSI SGR
// escapes (torchtitan's Color class: red "\x1b[31m", green "\x1b[32m", orange
// "\x1b[38;2;180;60;0m", turquoise "\x1b[38;2;54;234;195m", blue "\x1b[34m", cyan "\x1b[36m",
// magenta "\x1b[35m", reset "\x1b[39m"), and TFLOP/s printed with `{tflops:,.2f}`, which puts
// a thousands separator in values of 1,000 and more. Built from that format string around
// the fields of issue-torchtitan-pr2389-unprefixed-allranks-step-lines.log.

const titanHead = "[titan] 2026-02-24 19:46:17,508 - root - INFO - "

func titanColoured(tflops string) string {
	return titanHead + "\x1b[31mstep:  4  \x1b[32mloss:  7.62585  \x1b[38;2;180;60;0mgrad_norm: 26.6250  " +
		"\x1b[38;2;54;234;195mmemory: 66.91GiB(37.51%)  \x1b[34mtps: 10,050  \x1b[36mtflops: " + tflops +
		"  \x1b[35mmfu: 13.99%\x1b[39m"
}

func titanStep4(tflops float64, has bool) Progress {
	return Progress{Framework: "torchtitan", Step: 4, TFLOPs: tflops, HasTFLOPs: has}
}

var progressExtraCases = []lineCase{
	{name: "torchtitan_coloured", in: titanColoured("314.71"),
		want: Line{Kind: KindProgress, Rank: -1, Prog: titanStep4(314.71, true)}},
	{name: "torchtitan_coloured_torchrun_prefix", in: "[rank3]:" + titanColoured("314.71"),
		want: Line{Kind: KindProgress, Rank: 3, Prog: titanStep4(314.71, true)}},
	{name: "torchtitan_coloured_thousands", in: titanColoured("1,339.16"),
		want: Line{Kind: KindProgress, Rank: -1, Prog: titanStep4(1339.16, true)}},
	{name: "torchtitan_plain_thousands", in: titanHead + "step:  4  loss:  7.62585  tps: 10,050  tflops: 1,339.16  mfu: 13.99%",
		want: Line{Kind: KindProgress, Rank: -1, Prog: titanStep4(1339.16, true)}},
	{name: "torchtitan_plain_millions", in: titanHead + "step:  4  loss:  7.62585  tflops: 1,000,339.16  mfu: 13.99%",
		want: Line{Kind: KindProgress, Rank: -1, Prog: titanStep4(1000339.16, true)}},
	{
		// built: NeMo's TFLOPS_per_GPU with a separator (the NeMo sample line otherwise).
		name: "nemo_tflops_thousands",
		in:   "Training epoch 0, iteration 45/99 | train_step_timing in s: 6.08 | TFLOPS_per_GPU: 1,249.5 | consumed_samples: 5888",
		want: Line{Kind: KindProgress, Rank: -1, Prog: Progress{Framework: "nemo", Step: 45, TimeS: 6.08, TFLOPs: 1249.5, HasTime: true, HasTFLOPs: true}},
	},
	// Negatives: separators in the wrong places are no number; an escape that is no SGR
	// (erase line) is not read past.
	{name: "torchtitan_bad_groups", in: titanHead + "step:  4  tflops: 1,33.16  mfu: 13.99%",
		want: Line{Kind: KindProgress, Rank: -1, Prog: titanStep4(0, false)}},
	{name: "torchtitan_separator_in_fraction", in: titanHead + "step:  4  tflops: 133.1,6  mfu: 13.99%",
		want: Line{Kind: KindProgress, Rank: -1, Prog: titanStep4(0, false)}},
	{name: "torchtitan_leading_separator", in: titanHead + "step:  4  tflops: ,133.16  mfu: 13.99%",
		want: Line{Kind: KindProgress, Rank: -1, Prog: titanStep4(0, false)}},
	{name: "torchtitan_erase_line_escape", in: titanHead + "\x1b[2Kstep:  4  tflops: 314.71",
		want: Line{Kind: KindOther, Rank: -1}},
	// Non-finite values as Python prints them (a step timed at zero gives inf TFLOP/s): read,
	// marked non-finite, with the float 0 so that the Line equals itself (NaN does not).
	{name: "nemo_tflops_inf", in: "Training epoch 0, iteration 46/99 | train_step_timing in s: 6.08 | TFLOPS_per_GPU: inf | consumed_samples: 5888",
		want: Line{Kind: KindProgress, Rank: -1, Prog: Progress{Framework: "nemo", Step: 46, TimeS: 6.08, HasTime: true, HasTFLOPs: true, TFLOPsNF: PosInf}}},
	{name: "nemo_time_nan", in: "Training epoch 0, iteration 47/99 | train_step_timing in s: nan | TFLOPS_per_GPU: 1.25e+03",
		want: Line{Kind: KindProgress, Rank: -1, Prog: Progress{Framework: "nemo", Step: 47, TFLOPs: 1250, HasTime: true, HasTFLOPs: true, TimeNF: NaN}}},
	{name: "nemo_both_nan_uppercase", in: "Training epoch 0, iteration 48/99 | train_step_timing in s: NaN | TFLOPS_per_GPU: NAN",
		want: Line{Kind: KindProgress, Rank: -1, Prog: Progress{Framework: "nemo", Step: 48, HasTime: true, HasTFLOPs: true, TimeNF: NaN, TFLOPsNF: NaN}}},
	{name: "megatron_time_inf_ms", in: " iteration       20/    1000 | elapsed time per iteration (ms): inf | throughput per GPU (TFLOP/s/GPU): nan |",
		want: Line{Kind: KindProgress, Rank: -1, Prog: Progress{Framework: "megatron", Step: 20, HasTime: true, HasTFLOPs: true, TimeNF: PosInf, TFLOPsNF: NaN}}},
	{name: "megatron_tflops_infinity", in: " iteration       21/    1000 | elapsed time per iteration (ms): 820.7 | throughput per GPU (TFLOP/s/GPU): Infinity |",
		want: Line{Kind: KindProgress, Rank: -1, Prog: Progress{Framework: "megatron", Step: 21, TimeS: 0.8207, HasTime: true, HasTFLOPs: true, TFLOPsNF: PosInf}}},
	{name: "torchtitan_tflops_minus_inf", in: titanHead + "step:  4  loss:  nan  tflops: -inf  mfu: -inf%",
		want: Line{Kind: KindProgress, Rank: -1, Prog: Progress{Framework: "torchtitan", Step: 4, HasTFLOPs: true, TFLOPsNF: NegInf}}},
	{name: "torchtitan_coloured_tflops_nan", in: titanColoured("nan"),
		want: Line{Kind: KindProgress, Rank: -1, Prog: Progress{Framework: "torchtitan", Step: 4, HasTFLOPs: true, TFLOPsNF: NaN}}},
	{name: "torchtitan_tflops_c_minus_nan", in: titanHead + "step:  4  tflops: -nan  mfu: 0.00%",
		want: Line{Kind: KindProgress, Rank: -1, Prog: Progress{Framework: "torchtitan", Step: 4, HasTFLOPs: true, TFLOPsNF: NaN}}},
	// Words that only hold the letters are no number.
	{name: "torchtitan_tflops_infx", in: titanHead + "step:  4  tflops: infx  mfu: 0.00%",
		want: Line{Kind: KindProgress, Rank: -1, Prog: titanStep4(0, false)}},
	{name: "torchtitan_tflops_n_a", in: titanHead + "step:  4  tflops: n/a  mfu: 0.00%",
		want: Line{Kind: KindProgress, Rank: -1, Prog: titanStep4(0, false)}},
}

func TestProgressExtraLines(t *testing.T) { checkLines(t, progressExtraCases) }

// TestMegatronTimeIsExactDecimal: Megatron-LM prints the step time in milliseconds; 820.7 ms
// must be read as the float nearest 0.8207 s (which prints as 0.8207), not as 820.7 × 0.001
// (0.8207000000000001). Held for the grammar, the scanner and the parser.
func TestMegatronTimeIsExactDecimal(t *testing.T) {
	cases := map[string]string{
		// megatron-lm-gpt2-iteration-progress-timestamped.log
		"0.8207": " [2025-04-13 23:41:20] iteration       20/    1000 | consumed samples:          320 | elapsed time per iteration (ms): 820.7 | learning rate: 4.000000E-05 | global batch size:    16 |",
		// built: the same line with other times
		"0.3":      " [2025-04-13 23:41:20] iteration       20/    1000 | elapsed time per iteration (ms): 300.0 |",
		"1.1":      " [2025-04-13 23:41:20] iteration       20/    1000 | elapsed time per iteration (ms): 1100 |",
		"0.0123":   " [2025-04-13 23:41:20] iteration       20/    1000 | elapsed time per iteration (ms): 1.23e+01 |",
		"1234.567": " [2025-04-13 23:41:20] iteration       20/    1000 | elapsed time per iteration (ms): 1,234,567 |",
	}
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for want, line := range cases {
		var fast, parsed Line
		gram := p.Grammar().Parse([]byte(line))
		if !p.Scan([]byte(line), &fast) {
			fast = gram
		}
		p.Parse([]byte(line), &parsed)
		for who, l := range map[string]Line{"grammar": gram, "scanner": fast, "parser": parsed} {
			got := strconv.FormatFloat(l.Prog.TimeS, 'g', -1, 64)
			if !l.Prog.HasTime || got != want {
				t.Errorf("%s: step time of %q = %s (has %v), want %s", who, line, got, l.Prog.HasTime, want)
			}
		}
	}
}

func TestParseDecimal(t *testing.T) {
	ok := map[string]float64{"1,339.16": 1339.16, "-1,000": -1000, "12": 12, "1,000e3": 1e6, "999": 999}
	for in, want := range ok {
		if v, good := parseDecimal(in, 0); !good || v != want {
			t.Errorf("parseDecimal(%q) = %v, %v; want %v", in, v, good, want)
		}
	}
	for in, want := range map[string]NonFinite{"inf": PosInf, "-inf": NegInf, "+Inf": PosInf, "Infinity": PosInf,
		"nan": NaN, "NaN": NaN, "-nan": NaN} {
		for _, exp := range []int{0, -3} {
			if v, good := parseDecimal(in, exp); !good || NonFiniteOf(v) != want {
				t.Errorf("parseDecimal(%q, %d) = %v, %v; want %v", in, exp, v, good, want)
			}
		}
	}
	for _, in := range []string{"1,00", "1000,000", ",1", "1,", "1,000.0,1", "1,a00", "-,100", "", "in", "nana", "--nan", "1e999"} {
		if v, good := parseDecimal(in, 0); good {
			t.Errorf("parseDecimal(%q) = %v, want no number", in, v)
		}
	}
}

// TestNonFiniteProgressAgrees: the fast path checks its reading of a line's shape against the
// grammar's by comparing Lines; a Line that held NaN equalled nothing, so every nan progress
// line counted as a disagreement (and `internal: fast path and grammar disagreed` on stderr).
func TestNonFiniteProgressAgrees(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range progressExtraCases {
		for range 20 {
			var l Line
			p.Parse([]byte(c.in), &l)
		}
	}
	if p.Stats.Disagree != 0 {
		t.Errorf("%d disagreements, first on %q", p.Stats.Disagree, p.Stats.FirstDisagree)
	}
}

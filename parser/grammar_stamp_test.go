package parser

import "testing"

// TestGrammarStampRegressions holds the time grammar to the scanner's reader on lines the
// fuzz targets found, and to the time each carries.
func TestGrammarStampRegressions(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []stampCase{
		// A glog head cut short: participle hands the partial tree's captures a value short.
		{"glog_cut_short", "[W2\x00\x00:30c43.-262Y4891  rd:essGr8CCLdcpppNDDtext", Stamp{}},
		// Each of the other captures, cut short the same way.
		{"syslog_cut_short", "Jun 1", Stamp{}},
		{"zone_cut_short", "2025-06-11T14:03:27+02:0 x", Stamp{}},
		{"fraction_cut_short", "2025-06-11 14:03:27. x", Stamp{}},
		{"trace_cut_short", "gpu-node-07:48211:48211 [0] . f:1 NCCL TRACE x", Stamp{}},
	} {
		line := []byte(c.in)
		if got := p.Grammar().Parse(line).Time; got != c.want {
			t.Errorf("%s: Grammar.Parse(%q).Time = %+v, want %+v", c.name, c.in, got, c.want)
		}
		checkAgreement(t, p, line)
	}
}

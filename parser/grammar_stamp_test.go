package parser

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
)

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

// TestHeadOpeners holds headOpeners to the grammar: a line whose run opens with any other
// byte has no item for the grammar to read.
func TestHeadOpeners(t *testing.T) {
	g := builtStampGrammar()
	tails := []string{"", "2025-06-11 14:03:27 x", "1,3]<stdout>:x", "1016 03:31:38.9 x", "pid=1) x", "3: x"}
	for _, m := range monthNames {
		tails = append(tails, m[1:]+" 11 14:03:27 x")
	}
	for c := 0; c < 256; c++ {
		if headOpeners[c] || isSp(byte(c)) {
			continue
		}
		for _, tail := range tails {
			line := string([]byte{byte(c)}) + tail
			head, err := g.head.ParseString("", line, participle.AllowTrailing(true))
			if err == nil && len(head.Items) > 0 {
				t.Errorf("%q opens with %q, not in headOpeners, and reads an item", line, byte(c))
			}
		}
	}
}

// checkHeadTimeGate holds the time grammar's gate (mayHoldHeadTime) to the grammar: a line it
// turns away reads no time when the grammar reads it all the same.
func checkHeadTimeGate(t *testing.T, g *Grammar, line []byte) {
	t.Helper()
	b := trimCR(line)
	if got, want := g.headTime(b), g.readHeadTime(b); got != want {
		t.Errorf("%q: headTime %+v, ungated %+v (mayHoldHeadTime turns away a time)", line, got, want)
	}
}

// TestHeadTimeGate checks the gate on every stamp case, and on each with its clock's colons
// and its opening byte changed, which the gate turns away.
func TestHeadTimeGate(t *testing.T) {
	g := builtGrammar()
	for _, c := range stampCases {
		for _, in := range []string{c.in, strings.ReplaceAll(c.in, ":", "."), "g" + c.in[1:], " " + c.in} {
			checkHeadTimeGate(t, g, []byte(in))
		}
	}
}

// TestGrammarFor holds Parser to reading times with the time grammars where it checks a
// shape's first line and where a shape has gone to the grammar, and with the scanner's
// readers elsewhere.
func TestGrammarFor(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	if p.g.times != timeByGrammar || p.gScan.times != timeByScanner || p.Grammar() != p.g {
		t.Fatalf("Parser's grammars read times by %d and %d", p.g.times, p.gScan.times)
	}
	for _, c := range []struct {
		st   shapeState
		want *Grammar
	}{
		{shapeState{seen: 1}, p.g},
		{shapeState{seen: 4}, p.gScan},
		{shapeState{seen: 16}, p.gScan},
		{shapeState{seen: 4, grammarOnly: true}, p.g},
		{shapeState{seen: 5, grammarOnly: true}, p.g},
	} {
		if got := p.grammarFor(&c.st); got != c.want {
			t.Errorf("grammarFor(%+v) reads times by %d, want %d", c.st, got.times, c.want.times)
		}
	}
}

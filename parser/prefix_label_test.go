package parser

import (
	"strings"
	"testing"
)

// labelLines are a launcher's `[name|index]:` label before an NCCL exception's lines and an
// envelope line.
var labelLines = []string{
	"[trainer0|0]:ncclInternalError: Internal check failed.",
	"[trainer0|0]:Last error:",
	"[trainer0|0]:ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor AF_INET6(10)",
	"[worker_12|3]: n1:101:201 [1] NCCL INFO Channel 00/02 :    0   1",
}

// TestLabelPrefix: the label is read as a prefix, so the text after it reads as it does
// alone, and carries no rank (its index is the launcher's, not a global rank).
func TestLabelPrefix(t *testing.T) {
	p, _ := NewParser()
	want := []Kind{KindFailure, KindFailure, KindOther, KindInfo}
	for i, line := range labelLines {
		got := p.Grammar().Parse([]byte(line))
		if got.Kind != want[i] || got.Rank != -1 {
			t.Errorf("%q: kind %v rank %d, want %v rank -1", line, got.Kind, got.Rank, want[i])
		}
		if end, _ := scanPrefixes([]byte(line)); end < strings.Index(line, "]:")+2 {
			t.Errorf("%q: the scanner's prefixes end at %d", line, end)
		}
		checkAgreement(t, p, []byte(line))
	}
	if l := p.Grammar().Parse([]byte(labelLines[0])); l.Fail == nil || l.Fail.Result != ResultInternal {
		t.Errorf("%q: %+v, want ncclInternalError", labelLines[0], l.Fail)
	}
}

// TestLabelNearMisses: bracketed text that is not a label in its exact form (a name of
// identifier bytes, '|', digits, `]:` at the line's start) is no prefix.
func TestLabelNearMisses(t *testing.T) {
	p, _ := NewParser()
	const msg = "ncclInternalError: Internal check failed."
	for _, head := range []string{"[0|0]:", "[trainer 0|0]:", "[trainer0|0] :", "[trainer0|x]:", "[trainer0|0]", "[a-b|0]:", "[trainer0||0]:", "see [trainer0|0]:", "[trainer0|-1]:"} {
		line := head + msg
		if end, _ := scanPrefixes([]byte(line)); end != 0 && head[0] == '[' {
			t.Errorf("%q: the scanner reads a prefix of %d bytes", line, end)
		}
		if l := p.Grammar().Parse([]byte(line)); l.Kind == KindFailure {
			t.Errorf("%q reads as failure, want its head to stay text", line)
		}
		checkAgreement(t, p, []byte(line))
	}
}

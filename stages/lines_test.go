package stages_test

import (
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// TestLinesCountUnknownKeys: a collective line read past a field nccllog does not know is
// counted as a collective and in UnknownKey, and Merge adds the counts of two chunks.
func TestLinesCountUnknownKeys(t *testing.T) {
	lines := []parser.Line{
		{Kind: parser.KindCollective, UnknownKey: "acc"},
		{Kind: parser.KindCollective},
		{Kind: parser.KindCollective, UnknownKey: "acc"},
		{Kind: parser.KindInfo},
	}
	var a, b stages.Lines
	for i := range lines[:2] {
		a.Add(int64(i+1), nil, &lines[i])
	}
	for i := range lines[2:] {
		b.Add(int64(i+3), nil, &lines[2+i])
	}
	a.Merge(&b)
	if a.Total != 4 || a.ByKind[parser.KindCollective] != 3 || a.ByKind[parser.KindInfo] != 1 || a.UnknownKey != 2 {
		t.Errorf("total %d, collective %d, info %d, unknown key %d; want 4, 3, 1, 2",
			a.Total, a.ByKind[parser.KindCollective], a.ByKind[parser.KindInfo], a.UnknownKey)
	}
}

package stages_test

import (
	"encoding/json"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// TestLinesReportHasEveryClass: the lines object names every class, so that a class added to
// parser cannot go missing from the JSON (the classes add up to the total).
func TestLinesReportHasEveryClass(t *testing.T) {
	var l stages.Lines
	for k := range l.ByKind {
		l.ByKind[k] = int64(k + 1)
	}
	b, err := json.Marshal(l.Report())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]int64
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < parser.NumKinds; k++ {
		if name := parser.Kind(k).String(); m[name] != int64(k+1) {
			t.Errorf("lines.%s = %d, want %d", name, m[name], k+1)
		}
	}
}

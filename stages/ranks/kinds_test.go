package ranks

import (
	"strings"
	"testing"
)

// TestKindsHaveWords: every value of every kind enum has its own word, so no printer that
// prints one can print nothing or a placeholder.
func TestKindsHaveWords(t *testing.T) {
	check := func(name string, n int, str func(int) string) {
		seen := map[string]bool{}
		for i := range n {
			w := str(i)
			if w == "" || seen[w] || strings.HasPrefix(w, "unknown(") {
				t.Errorf("%s %d: word %q (empty, repeated or missing)", name, i, w)
			}
			seen[w] = true
		}
	}
	check("Evidence", int(evidenceEnd)-1, func(i int) string { return Evidence(i + 1).String() })
	check("FindingKind", int(findingKindEnd)-1, func(i int) string { return FindingKind(i + 1).String() })
	check("Grouping", int(groupingEnd), func(i int) string { return Grouping(i).String() })
	check("PGState", int(pgStateEnd)-1, func(i int) string { return PGState(i + 1).String() })
	var g Grouping
	for i := range int(groupingEnd) {
		b, _ := Grouping(i).MarshalText()
		if err := g.UnmarshalText(b); err != nil || g != Grouping(i) {
			t.Errorf("grouping %d: %q reads back as %d, %v", i, b, g, err)
		}
	}
	if err := g.UnmarshalText([]byte("guessed")); err == nil {
		t.Error("an unknown grouping word reads back without error")
	}
}

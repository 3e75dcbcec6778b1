package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGrammarSharedByGoroutines: NewGrammar hands every caller the same built grammars, said
// to be read-only; reading the table lines from several goroutines at once (run with -race)
// must give what one goroutine gets.
func TestGrammarSharedByGoroutines(t *testing.T) {
	g1, err := NewGrammar()
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := NewGrammar()
	lines := tableSeedLines()
	want := make([]Line, len(lines))
	for i, in := range lines {
		want[i] = g1.Parse([]byte(in))
	}
	const workers = 4
	errs := make(chan string, workers*len(lines))
	done := make(chan struct{})
	for w := 0; w < workers; w++ {
		g := g1
		if w%2 == 1 {
			g = g2
		}
		go func(w int, g *Grammar) {
			defer func() { done <- struct{}{} }()
			for k := range lines {
				i := (k + w*len(lines)/workers) % len(lines)
				if got := g.Parse([]byte(lines[i])); !cmp.Equal(want[i], got) {
					errs <- cmp.Diff(want[i], got)
				}
			}
		}(w, g)
	}
	for w := 0; w < workers; w++ {
		<-done
	}
	close(errs)
	for d := range errs {
		t.Errorf("concurrent Grammar.Parse differs (-alone +concurrent):\n%s", d)
	}
}

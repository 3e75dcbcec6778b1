package parser

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/grammar.ebnf from the grammar")

// grammarGolden is the reviewed copy of the grammar's EBNF.
var grammarGolden = filepath.Join("testdata", "grammar.ebnf")

// TestGrammarEBNF holds the grammar to its reviewed copy: a change to the struct tags of
// grammar_*.go fails here until `go test ./parser -run TestGrammarEBNF -update` rewrites
// testdata/grammar.ebnf, so the change shows in the diff.
func TestGrammarEBNF(t *testing.T) {
	got := EBNF()
	if got != EBNF() {
		t.Fatal("EBNF() differs from one call to the next")
	}
	if *update {
		if err := os.WriteFile(grammarGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(grammarGolden)
	if err != nil {
		t.Fatalf("%v (run go test ./parser -run TestGrammarEBNF -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("the grammar differs from %s; if the change is meant, run go test ./parser -run TestGrammarEBNF -update and commit the file (-golden +grammar):\n%s", grammarGolden, diff)
	}
}

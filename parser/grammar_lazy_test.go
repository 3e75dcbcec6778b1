package parser

import "testing"

// TestEveryGrammarBuilds: each grammar is built on its first use (lazyGrammar), and one that
// does not build panics there; a grammar only rare lines reach (failure evidence, NCCL 2.2's
// envelope) must not wait for such a line to show it.
func TestEveryGrammarBuilds(t *testing.T) {
	g, _ := NewGrammar()
	grammars := map[string]func() any{
		"nccl": func() any { return g.nccl() }, "coll": func() any { return g.coll() },
		"progress": func() any { return g.progress() }, "bare": func() any { return g.bare() },
		"watchdog": func() any { return g.watchdog() }, "failure": func() any { return g.failure() },
		"failGlued": func() any { return g.failGlued() }, "host": func() any { return g.host() },
		"old": func() any { return g.old() }, "stamp": func() any { return g.stamp() },
	}
	for name, build := range grammars {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("grammar %s does not build: %v", name, r)
				}
			}()
			if build() == nil {
				t.Errorf("grammar %s is nil", name)
			}
		}()
	}
}

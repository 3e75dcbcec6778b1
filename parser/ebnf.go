package parser

import "strings"

// EBNF returns the grammar of record in EBNF, as participle prints it: one section for each
// of its parsers (a line with an NCCL envelope, the collective message on its own, a progress
// line, a line without an envelope), each headed by a comment naming it. Its golden copy,
// testdata/grammar.ebnf, makes every change to the grammar show in review.
func EBNF() string {
	g := builtGrammar()
	sections := []struct{ name, ebnf string }{
		{"a line with an NCCL envelope (Grammar.Parse tries it first)", g.nccl().String()},
		{"the message of a collective line on its own (says why one is malformed)", g.coll().String()},
		{"a training framework's progress line", g.progress().String()},
		{"a line without an envelope", g.bare().String()},
		{"an envelope without pid:tid (where a line without an envelope holds an NCCL level)", g.host().String()},
		{"the run of launcher prefixes, times and white space that opens a line (its time)", g.stamp().head.String()},
		{"a TRACE line's milliseconds since init", g.stamp().trace.String()},
	}
	var b strings.Builder
	for i, s := range sections {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("(* " + s.name + " *)\n")
		b.WriteString(strings.TrimRight(s.ebnf, "\n") + "\n")
	}
	return b.String()
}

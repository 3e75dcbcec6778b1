package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzScannerAgreesWithGrammar holds the scanner to the parser of record on arbitrary input:
// for any line without a newline byte, neither Grammar.Parse nor Parser.Scan (nor
// Parser.Parse) may panic, and wherever the scanner answers, its Line must equal the
// grammar's. Parser.Parse, which reads at most MaxRead bytes of a line, must equal the
// grammar on those bytes. And every line read as KindProgress must hold "iteration" or
// "step", the words ProgressFinder searches for (split passes over other lines unread).
//
// The corpus is seeded with every line of every real sample log (read in place from
// ../../shared/samples; skipped silently when that directory is missing) and with the lines
// of the table tests of this package.
func FuzzScannerAgreesWithGrammar(f *testing.F) {
	for _, s := range fuzzSeedsFromSamples() {
		f.Add(s)
	}
	for _, s := range tableSeedLines() {
		f.Add([]byte(s))
	}
	p, err := NewParser()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			return
		}
		want := p.Grammar().Parse(line)
		var fast Line
		if p.Scan(line, &fast) && !cmp.Equal(want, fast) {
			t.Errorf("scanner and grammar disagree on %q (-grammar +scanner):\n%s", line, cmp.Diff(want, fast))
		}
		read := want
		if len(line) > MaxRead {
			read = p.Grammar().Parse(line[:MaxRead])
		}
		var got Line
		p.Parse(line, &got)
		if !cmp.Equal(read, got) {
			t.Errorf("Parser.Parse differs from Grammar.Parse on %q (-grammar +parser):\n%s", line, cmp.Diff(read, got))
		}
		if want.Kind == KindProgress && !bytes.Contains(line, []byte("iteration")) && !bytes.Contains(line, []byte("step")) {
			t.Errorf("progress line %q holds neither \"iteration\" nor \"step\"", line)
		}
	})
}

// fuzzSeedsFromSamples returns every line of every sample log, without its newline (a CR of
// a CRLF ending is kept, as a reader splitting on '\n' would keep it).
func fuzzSeedsFromSamples() [][]byte {
	files, _ := filepath.Glob("../../shared/samples/*.log")
	var seeds [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, l := range bytes.Split(data, []byte{'\n'}) {
			seeds = append(seeds, bytes.Clone(l))
		}
	}
	return seeds
}

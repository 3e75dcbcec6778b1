package parser

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sampleDirs are the real logs the tests read in place.
var sampleGlobs = []string{"../../shared/samples/*.log", "../../shared/golden/*/input.log"}

func sampleFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, g := range sampleGlobs {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no sample logs found under ../../shared")
	}
	return files
}

func forEachLine(t testing.TB, path string, f func(n int, line []byte)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		f(n, sc.Bytes())
	}
}

// TestScannerAgreesWithGrammar holds the fast path against the parser of record on every
// line of every sample: wherever the scanner answers, it must answer what the grammar does.
func TestScannerAgreesWithGrammar(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sampleFiles(t) {
		answered, total := 0, 0
		forEachLine(t, f, func(n int, line []byte) {
			total++
			var fast Line
			if !p.Scan(line, &fast) {
				return
			}
			answered++
			want := p.Grammar().Parse(line)
			if diff := cmp.Diff(want, fast); diff != "" {
				t.Errorf("%s:%d: scanner and grammar disagree (-grammar +scanner):\n%s\n%q", filepath.Base(f), n, diff, line)
			}
		})
		t.Logf("%s: scanner answered %d of %d lines", filepath.Base(f), answered, total)
	}
}

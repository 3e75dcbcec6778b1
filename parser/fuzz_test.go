package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nccllog/nccllog/internal/sharedtest"
)

// FuzzScannerAgreesWithGrammar holds the scanner to the parser of record on arbitrary input:
// for every line of the input, in turn through one parser (so that what the scanner keeps
// from a thread's last lines is put to the test by the next), neither Grammar.Parse nor
// Parser.Scan (nor Parser.Parse) may panic, and wherever the scanner answers, its Line must
// equal the grammar's. Parser.Parse, which reads at most MaxRead bytes of a line, must equal the
// grammar on those bytes. And every line read as KindProgress must hold "iteration" or
// "step", the words ProgressFinder searches for (split passes over other lines unread).
//
// The corpus is seeded with the lines of the table tests of this package, the project's
// fixture lines (testdata/lines), and every line of every real sample log of the shared
// material where it is there (see sharedtest).
func FuzzScannerAgreesWithGrammar(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	for _, s := range tableSeedLines() {
		f.Add([]byte(s))
	}
	for _, s := range stampSeedLines() {
		f.Add([]byte(s))
	}
	for _, s := range pastedSeeds() {
		f.Add(s)
	}
	p, err := NewParser()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		for _, line := range bytes.Split(input, []byte{'\n'}) {
			checkAgreement(t, p, line)
		}
	})
}

// checkAgreement holds one line to the properties above and returns the grammar's reading
// of it.
func checkAgreement(t *testing.T, p *Parser, line []byte) Line {
	t.Helper()
	want := p.Grammar().Parse(line)
	var fast Line
	if p.Scan(line, &fast) && !equalLines(want, fast) {
		t.Errorf("scanner and grammar disagree on %q (-grammar +scanner):\n%s", line, cmp.Diff(want, fast))
	}
	read := want
	if len(line) > MaxRead {
		read = p.Grammar().Parse(line[:MaxRead])
	}
	var got Line
	p.Parse(line, &got)
	if !equalLines(read, got) {
		t.Errorf("Parser.Parse differs from Grammar.Parse on %q (-grammar +parser):\n%s", line, cmp.Diff(read, got))
	}
	if b := trimCR(line); headStamp(b) != lineStamp(b) {
		t.Errorf("%q holds a time %+v that both parsers leave unread (headStamp's gate)", line, lineStamp(b))
	}
	if want.Kind == KindProgress && !bytes.Contains(line, []byte("iteration")) && !bytes.Contains(line, []byte("step")) {
		t.Errorf("progress line %q holds neither \"iteration\" nor \"step\"", line)
	}
	return want
}

// nanEqual lets a progress line's nan time read the same by both (NaN is unequal to itself).
var nanEqual = cmpopts.EquateNaNs()

// equalLines is cmp.Equal(a, b, nanEqual), answered by reflect.DeepEqual where that holds:
// cmp walking every field of two equal Lines by reflection was a tenth of the package's
// time. A Line has no Equal methods, so DeepEqual holding means cmp finds them equal; where
// it does not hold (a difference, or a NaN), cmp decides.
func equalLines(a, b Line) bool { return reflect.DeepEqual(a, b) || cmp.Equal(a, b, nanEqual) }

// fuzzSeeds returns every line of every fixture file and shared sample log, without its
// newline (a CR of a CRLF ending is kept, as a reader splitting on '\n' would keep it), and
// runs of their lines.
func fuzzSeeds(f *testing.F) [][]byte {
	fixtures, _ := filepath.Glob(fixtureGlob)
	var seeds [][]byte
	for _, name := range append(fixtures, sharedtest.Optional(f, "samples/*.log")...) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		lines := bytes.Split(data, []byte{'\n'})
		for i, l := range lines {
			if i%shortSeedStride() == 0 {
				seeds = append(seeds, bytes.Clone(l))
			}
		}
		seeds = append(seeds, lineRuns(lines)...)
	}
	// Runs of a generated log's lines: threads that repeat their heads and tails.
	for _, name := range sharedtest.Optional(f, "golden/*/input.log") {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, lineRuns(bytes.SplitN(data, []byte{'\n'}, 400))...)
	}
	return seeds
}

// shortSeedStride is every how many single lines of a fixture or sample file become a seed:
// every one with go test ./... (and when fuzzing); every fourth with -short, where
// TestScannerAgreesWithGrammar holds every such line to the grammar anyway.
func shortSeedStride() int {
	if testing.Short() {
		return 4
	}
	return 1
}

// lineRuns returns runs of six lines, one run every fifty lines, as multi-line seeds.
func lineRuns(lines [][]byte) [][]byte {
	var runs [][]byte
	for i := 0; i+6 <= len(lines); i += 50 {
		runs = append(runs, bytes.Join(lines[i:i+6], []byte{'\n'}))
	}
	return runs
}

// pastedSeeds are runs of lines as people paste them and as processes glue them: one
// thread's records with their pointers redacted and then not (the scanner keeps a thread's
// tails), an nccl-tests row with records run on from its columns, records run on from
// records, container ids behind times and labels, redacted hosts (`<host>`, none), and records
// without an envelope, so that the fuzzer mutates whole such runs.
func pastedSeeds() [][]byte {
	red := redacted("<PTR>")
	tagged := strings.Replace(tfLine, "INFO AllReduce", "INFO [2] AllReduce", 1)
	noStream := strings.TrimSuffix(tfLine, " stream 0x7f0c74002f00")
	digitHost := strings.Replace(tfLine, "gpu1:", "3f4e5d6c7b8a:", 1)
	runs := [][]string{
		{tfLine, red, tfLine, red, redacted("0x..."), tfLine},
		{tagged, tfLine, tagged, noStream, tfLine, noStream},
		{"           8             2     float     sum      -1" + tfLine, tfLine, "    12.10    0.00    0.00    N/A" + tfLine, "    12.10    0.00    0.00      0" + tfRecord},
		{tfLine + tfLine, tfLine + tfRecord, tfLine + " " + tfRecord, strings.Replace(tfLine, "gpu1", "0x7f0c74002f00gpu1", 1)},
		{"12:00:00.123 " + digitHost, "worker-1: " + digitHost, `"` + digitHost, "2024-05-01 12:00:00 " + digitHost},
		{strings.Replace(tfLine, "gpu1:", "<gpu-host>:", 1), strings.Replace(tfLine, "gpu1:", ":", 1), "x >> " + strings.Replace(tfLine, "gpu1:", ":", 1), strings.Replace(tfLine, "gpu1:", "::", 1)},
		{tfRecord, "3: " + tfRecord, "NCCL INFO " + strings.TrimSuffix(tfRecord, " stream 0x7f0c74002f00"), "[2] " + tfRecord},
	}
	var out [][]byte
	for _, r := range runs {
		out = append(out, []byte(strings.Join(r, "\n")))
	}
	return out
}

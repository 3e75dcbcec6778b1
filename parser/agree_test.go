package parser

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/sharedtest"
)

// fixtureGlob names the project's own lines for the agreement tests, written from the NCCL
// log format reference: the envelopes, prefixes, collective, comm, info, warn, trace and
// version lines of NCCL 2.4 to 2.30 and RCCL, progress lines, CRLF, and damaged lines. They
// hold the scanner to the grammar in a clone without the shared logs.
const fixtureGlob = "testdata/lines/*.log"

// sharedSampleFiles returns the real logs of the shared material, skipping t without them.
func sharedSampleFiles(t testing.TB) []string {
	t.Helper()
	return append(sharedtest.Glob(t, "samples/*.log"), sharedtest.Glob(t, "golden/*/input.log")...)
}

// fixtureLines returns the lines of a fixture file as a reader splitting on '\n' gives them:
// a CR of a CRLF ending is kept.
func fixtureLines(t testing.TB, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'})
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
// line of the project's fixture (in turn through one parser, as checkAgreement does for the
// fuzz target) and of every real sample where the shared logs are there: wherever the
// scanner answers, it must answer what the grammar does.
func TestScannerAgreesWithGrammar(t *testing.T) {
	t.Run("fixture", testAgreementOnFixture)
	t.Run("shared", testAgreementOnSamples)
}

// testAgreementOnFixture also requires the fixture to hold every class of line and the
// scanner to answer on most of its collective lines, so that it keeps testing something.
func testAgreementOnFixture(t *testing.T) {
	files, _ := filepath.Glob(fixtureGlob)
	if len(files) == 0 {
		t.Fatalf("no fixture lines under %s", fixtureGlob)
	}
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	var kinds [NumKinds]int
	collectives, answered := 0, 0
	for _, f := range files {
		for n, line := range fixtureLines(t, f) {
			var fast Line
			scanned := p.Scan(line, &fast)
			want := checkAgreement(t, p, line) // the grammar's reading, read once
			if t.Failed() {
				t.Fatalf("%s:%d: first disagreement above", filepath.Base(f), n+1)
			}
			kinds[want.Kind]++
			if scanned && want.Kind == KindCollective {
				answered++
			}
			collectives += btoi(want.Kind == KindCollective)
		}
	}
	for k := range Kind(NumKinds) {
		if kinds[k] == 0 {
			t.Errorf("the fixture holds no %v line", k)
		}
	}
	if answered*2 < collectives {
		t.Errorf("the scanner answered on %d of the fixture's %d collective lines; want most", answered, collectives)
	}
	t.Logf("classes %v; scanner answered %d of %d collective lines", kinds, answered, collectives)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func testAgreementOnSamples(t *testing.T) {
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sharedSampleFiles(t) {
		answered, total, stride := 0, 0, shortLineStride(f)
		forEachLine(t, f, func(n int, line []byte) {
			total++
			var fast Line
			if !p.Scan(line, &fast) {
				return
			}
			if answered++; answered%stride != 0 {
				return
			}
			want := p.Grammar().Parse(line)
			if reflect.DeepEqual(want, fast) {
				return // cmp.Diff finds no difference where DeepEqual holds (see equalLines)
			}
			if diff := cmp.Diff(want, fast); diff != "" {
				t.Errorf("%s:%d: scanner and grammar disagree (-grammar +scanner):\n%s\n%q", filepath.Base(f), n, diff, line)
			}
		})
		t.Logf("%s: scanner answered %d of %d lines", filepath.Base(f), answered, total)
	}
}

// shortLineStride is every how many answered lines of file testAgreementOnSamples holds to
// the grammar: every one with go test ./...; with -short, every 16th of the generated golden
// inputs (megabytes each; the scanner still reads every line, so its per-thread state is
// the same) and every one of the real samples.
func shortLineStride(file string) int {
	if testing.Short() && filepath.Base(file) == "input.log" {
		return 16
	}
	return 1
}

package diagnose_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/pipeline"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
)

// discard is an Out for runs whose stages stream nothing.
type discard struct{}

func (discard) Lines([]byte) error      { return nil }
func (discard) Call(*stages.Call) error { return nil }

// diagnoseBytes runs diagnose (with ranks, as the command does) over data written to a file
// named name, read in chunks of chunk bytes (0: the default).
func diagnoseBytes(t testing.TB, name string, data []byte, chunk int) diagnose.Report {
	t.Helper()
	return diagnoseFiles(t, chunk, name, string(data))
}

// diagnoseFiles runs diagnose (with ranks) over files written in order, each a name and its
// text (nameAndText: name, text, name, text, ...), read in chunks of chunk bytes (0: the
// default), as one run reads the files of a job.
func diagnoseFiles(t testing.TB, chunk int, nameAndText ...string) diagnose.Report {
	t.Helper()
	dir := t.TempDir()
	var ins []pipeline.Input
	for i := 0; i+1 < len(nameAndText); i += 2 {
		path := filepath.Join(dir, nameAndText[i])
		if err := os.WriteFile(path, []byte(nameAndText[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, pipeline.Input{Name: path})
	}
	plan := stages.MustPlan(stages.Config{}, all.Registry(), "ranks", "diagnose")
	res, err := pipeline.RunAll(context.Background(), ins, pipeline.Options{Plan: plan, ChunkSize: chunk, Parsers: goldentest.Parsers()}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	r := diagnose.Build(res.Set)
	checkTexts(t, nameAndText[0], r)
	for i := range r.Findings {
		for j := range r.Findings[i].Evidence {
			r.Findings[i].Evidence[j].File = filepath.Base(r.Findings[i].Evidence[j].File)
		}
	}
	return r
}

// generate writes the log of c and its ground truth.
func generate(t testing.TB, c gen.Config) ([]byte, gen.Truth) {
	t.Helper()
	var b bytes.Buffer
	s, err := gen.Write(&b, c)
	if err != nil {
		t.Fatal(err)
	}
	var tr gen.Truth
	if s.Truth != nil {
		tr = *s.Truth
	}
	return b.Bytes(), tr
}

// readsFailures reports whether the parser reads data's own failure lines (launcher lines,
// tracebacks and their exceptions), whatever prefixes and times they carry.
func readsFailures(t testing.TB, data []byte) bool {
	t.Helper()
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		for _, w := range []string{"Traceback (most recent call last)", "srun: error:", "Root Cause (first observed failure)", "OutOfMemoryError: ", "Process name: "} {
			if !bytes.Contains(line, []byte(w)) {
				continue
			}
			var l parser.Line
			if p.Parse(line, &l); l.Kind != parser.KindFailure {
				return false
			}
		}
	}
	return failureLinesRead(t)
}

// failureLinesRead reports whether the parser reads launcher and Python failure lines
// (KindFailure): until it does, the tests that need them are skipped.
func failureLinesRead(t testing.TB) bool {
	t.Helper()
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	var l parser.Line
	p.Parse([]byte("srun: error: gpu-node-01: task 9: Exited with exit code 1"), &l)
	return l.Kind == parser.KindFailure
}

// checkTexts fails where a finding prints an empty summary or evidence line.
func checkTexts(t testing.TB, name string, r diagnose.Report) {
	t.Helper()
	for i, f := range r.Findings {
		if strings.TrimSpace(f.Summary) == "" {
			t.Errorf("%s: finding %d (%s) has an empty summary", name, i, f.Kind)
		}
		for _, e := range f.Evidence {
			if strings.TrimSpace(e.Text) == "" {
				t.Errorf("%s: finding %d (%s): evidence %s:%d has no text", name, i, f.Kind, e.File, e.Line)
			}
		}
	}
}

// quietIn checks that each of lines, added at the end of a healthy job's log, leaves it
// healthy: prose that quotes an error's words, and a line of the family that says nothing
// went wrong.
func quietIn(t *testing.T, lines ...string) {
	t.Helper()
	data, _ := warnJob(t)
	for _, line := range lines {
		if r := diagnoseBytes(t, "job.log", append(slices.Clone(data), line...), 0); r.Status != diagnose.StatusHealthy {
			t.Errorf("%.60q in a healthy job: status %s, want healthy:\n%s", line, r.Status, js(r))
		}
	}
}

// firstFault runs diagnose over log and checks that its first finding is a fault of kind on
// exactly ranks; it returns that finding, and false where the check failed (reported).
func firstFault(t *testing.T, log string, kind diagnose.Kind, ranks ...int64) (diagnose.Finding, bool) {
	t.Helper()
	r := diagnoseBytes(t, "job.log", []byte(log), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 || r.Findings[0].Kind != kind || !slices.Equal(r.Findings[0].Ranks, ranks) {
		t.Errorf("%.60q: want a %s of ranks %v first:\n%s", log, kind, ranks, js(r))
		return diagnose.Finding{}, false
	}
	return r.Findings[0], true
}

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
)

// timedJob is a training job whose call lines are timed to the microsecond, with the
// progress lines of progress ("none": without any).
func timedJob(progress string) gen.Config {
	return gen.Config{Seed: 5, Ranks: 4, RanksPerHost: 2, Steps: 8, Noise: true, Progress: progress,
		Timestamps: "nccl-all", TimestampDigits: 6}
}

// writeJob writes cfg's log as one file in dir and returns its path and bytes.
func writeJob(t *testing.T, dir string, cfg gen.Config) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.Write(&b, cfg); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "job.log")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, b.Bytes()
}

// runCLIPlans is runCLI that also returns the stages of each read of the inputs (each
// read's plan is handed to env.onPlan).
func runCLIPlans(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int, reads [][]string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := env{parsers: testParsers(), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, onPlan: func(p *stages.Plan) {
		var names []string
		for _, s := range p.Stages {
			names = append(names, s.Name())
		}
		reads = append(reads, names)
	}}
	code = run(args, e)
	return out.String(), errb.String(), code, reads
}

const inferredHead = "steps inferred from the call pattern: "

const onceNote = "nccllog: note: no progress lines; steps are inferred from the call pattern only where the input can be read again (a file, not standard input or a pipe)\n"

// TestStepsInferredFromFiles: a timed log without progress lines, given as a file, as a
// gzip-compressed file or in a directory, gets its steps inferred, the same each way.
func TestStepsInferredFromFiles(t *testing.T) {
	dir := t.TempDir()
	path, data := writeJob(t, dir, timedJob("none"))
	want, stderr, code := runCLI(t, "", "steps", path)
	if code != exitOK || stderr != "" || !strings.HasPrefix(want, inferredHead) {
		t.Fatalf("steps %s: exit %d, stderr %q, stdout %q: want inferred steps", path, code, stderr, want)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	gzPath := filepath.Join(sub, "job.log.gz")
	if err := os.WriteFile(gzPath, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{gzPath, sub} {
		got, stderr, code := runCLI(t, "", "steps", in)
		if code != exitOK || stderr != "" || got != want {
			t.Errorf("steps %s: exit %d, stderr %q, output (-file +this):\n%s", in, code, stderr, cmp.Diff(want, got))
		}
	}
}

// TestStepsStdinNotInferred: the same bytes through standard input are read once: no steps
// are inferred, and one note on stderr says where they would be.
func TestStepsStdinNotInferred(t *testing.T) {
	_, data := writeJob(t, t.TempDir(), timedJob("none"))
	out, stderr, code, reads := runCLIPlans(t, string(data), "steps")
	if code != exitOK || strings.Contains(out, inferredHead) || !strings.Contains(out, "avg of 0") {
		t.Errorf("steps < log: exit %d, stdout %q: want exit 0 and no steps", code, out)
	}
	if stderr != onceNote {
		t.Errorf("steps < log: stderr %q, want %q", stderr, onceNote)
	}
	if len(reads) != 1 {
		t.Errorf("steps < log: read %d times (%v), want once", len(reads), reads)
	}
}

// TestStepsReadsOnce: a log with progress lines, or a run with --steps, is read once, for
// the progress lines only (the steps stage); a log without is read a second time with the
// calls kept (callsteps).
func TestStepsReadsOnce(t *testing.T) {
	dir := t.TempDir()
	withProg, _ := writeJob(t, dir, timedJob("nemo"))
	none := filepath.Join(t.TempDir(), "none.log")
	path, _ := writeJob(t, filepath.Dir(none), timedJob("none"))
	cases := []struct {
		args []string
		want [][]string
	}{
		{[]string{"steps", withProg}, [][]string{{"steps"}}},
		{[]string{"steps", "--format", "json", withProg}, [][]string{{"steps"}}},
		{[]string{"steps", "--steps", "2-3", path}, [][]string{{"steps"}}},
		{[]string{"steps", path}, [][]string{{"steps"}, {"steps", "callsteps"}}},
	}
	for _, c := range cases {
		_, stderr, code, reads := runCLIPlans(t, "", c.args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		if len(reads) != len(c.want) {
			t.Errorf("%v: %d reads %v, want %v", c.args, len(reads), reads, c.want)
			continue
		}
		for i, names := range reads {
			if slices.Contains(names, "callsteps") != slices.Contains(c.want[i], "callsteps") || !slices.Contains(names, "steps") {
				t.Errorf("%v: read %d ran %v, want %v", c.args, i+1, names, c.want[i])
			}
		}
	}
}

// TestStepsInferredOverPartials: steps over the partial results of a timed job without
// progress lines (one file per process, summarized per node) infers the steps the files do,
// byte for byte, in every format.
func TestStepsInferredOverPartials(t *testing.T) {
	dir := t.TempDir()
	files, err := gen.WriteFiles(dir, timedJob("none"))
	if err != nil {
		t.Fatal(err)
	}
	half := len(files) / 2
	parts := []string{filepath.Join(dir, "node0.part"), filepath.Join(dir, "node1.part")}
	for i, nodeFiles := range [][]string{files[:half], files[half:]} {
		if _, stderr, code := runCLI(t, "", append([]string{"summarize", "-o", parts[i]}, nodeFiles...)...); code != exitOK {
			t.Fatalf("summarize: exit %d: %s", code, stderr)
		}
	}
	for _, format := range []string{"table", "json", "csv"} {
		args := []string{"steps", "--format", format}
		wantOut, wantErr, wantCode := runCLI(t, "", append(args, files...)...)
		if format == "table" && !strings.HasPrefix(wantOut, inferredHead) {
			t.Fatalf("%v over the logs: %q, want inferred steps", args, wantOut)
		}
		gotOut, gotErr, gotCode := runCLI(t, "", append(args, parts...)...)
		if gotCode != wantCode || gotErr != wantErr {
			t.Errorf("%v: exit %d, stderr %q over partials; %d, %q over the logs", args, gotCode, gotErr, wantCode, wantErr)
		}
		if diff := cmp.Diff(wantOut, gotOut); diff != "" {
			t.Errorf("%v: output (-logs +partials):\n%s", args, diff)
		}
	}
}

// TestStepsOldPartialRefused: a partial of format 3 holds no callsteps analysis; it is
// refused saying to summarize the logs again, not that it lacks an analysis.
func TestStepsOldPartialRefused(t *testing.T) {
	dir := t.TempDir()
	log, _ := writeJob(t, dir, timedJob("none"))
	part := filepath.Join(dir, "job.part")
	if _, stderr, code := runCLI(t, "", "summarize", "-o", part, log); code != exitOK {
		t.Fatalf("summarize: exit %d: %s", code, stderr)
	}
	p := loadPartial(t, part)
	p.Version = 3
	p.Stages = slices.DeleteFunc(p.Stages, func(s testStage) bool { return s.Name == "callsteps" })
	old := filepath.Join(dir, "old.part")
	savePartial(t, old, p)
	want := fmt.Sprintf("written in partial-result format 3 by another nccllog, this nccllog reads format %d: summarize the logs again with this nccllog", stages.PartialVersion)
	refusedSmall(t, old, want, "steps")
}

// TestStepsSecondReadError: an input that cannot be read the second time (removed between
// the reads) is an error like the first read's: one line naming it, exit 1, nothing on stdout.
func TestStepsSecondReadError(t *testing.T) {
	path, _ := writeJob(t, t.TempDir(), timedJob("none"))
	var out, errb bytes.Buffer
	e := env{parsers: testParsers(), stdin: strings.NewReader(""), stdout: &out, stderr: &errb, onPlan: func(p *stages.Plan) {
		if slices.ContainsFunc(p.Stages, func(s stages.Stage) bool { return s.Name() == "callsteps" }) {
			os.Remove(path)
		}
	}}
	code := run([]string{"steps", path}, e)
	if code != exitData || out.Len() != 0 || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), path) {
		t.Errorf("steps over a log removed before its second read: exit %d, stdout %q, stderr %q: want exit 1, one line naming it", code, out.String(), errb.String())
	}
}

// TestFollowUpOnlyAfterRun: a command that asks for a second read prints after the run; one
// that writes as it reads would write its lines twice.
func TestFollowUpOnlyAfterRun(t *testing.T) {
	for _, c := range commands {
		if c.followUp != nil && (c.streams != nil || c.print == nil) {
			t.Errorf("%s has a followUp but writes as it reads", c.name)
		}
	}
}

// TestStepsEmptyStdinNoNote: an empty standard input has no calls to infer from: no note.
func TestStepsEmptyStdinNoNote(t *testing.T) {
	if _, stderr, code := runCLI(t, "", "steps"); code != exitOK || stderr != "" {
		t.Errorf("steps < /dev/null: exit %d, stderr %q, want 0 and nothing", code, stderr)
	}
}

// TestStepsInferredWholeLogOverPartials: partial results carry the steps past each
// process's first KeptCalls calls, so steps over them lists every step the logs do, byte for
// byte; a partial of format 4 (which kept the first calls only) is refused.
func TestStepsInferredWholeLogOverPartials(t *testing.T) {
	dir := t.TempDir()
	cfg := gen.Config{Seed: 7, Ranks: 2, RanksPerHost: 2, Steps: 200, Noise: true, Progress: "none", Timestamps: "nccl-all", TimestampDigits: 6}
	files, err := gen.WriteFiles(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for i, f := range files {
		parts = append(parts, filepath.Join(dir, fmt.Sprintf("p%d.part", i)))
		if _, stderr, code := runCLI(t, "", "summarize", "-o", parts[i], f); code != exitOK {
			t.Fatalf("summarize: exit %d: %s", code, stderr)
		}
	}
	want, _, _ := runCLI(t, "", append([]string{"steps", "--format", "csv"}, files...)...)
	if n := strings.Count(want, "\n") - 1; n != cfg.Steps-1 {
		t.Fatalf("steps over the logs: %d steps, want %d:\n%s", n, cfg.Steps-1, want)
	}
	got, stderr, code := runCLI(t, "", append([]string{"steps", "--format", "csv"}, parts...)...)
	if code != exitOK || stderr != "" || got != want {
		t.Errorf("steps over the partials: exit %d, stderr %q, output:\n%s\nwant:\n%s", code, stderr, got, want)
	}
	p := loadPartial(t, parts[0])
	p.Version = 4
	old := filepath.Join(dir, "old.part")
	savePartial(t, old, p)
	refusedSmall(t, old, fmt.Sprintf("written in partial-result format 4 by another nccllog, this nccllog reads format %d: summarize the logs again with this nccllog", stages.PartialVersion), "steps")
}

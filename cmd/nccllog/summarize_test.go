package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
)

// partialJobs are generated jobs, one file per process, healthy and with each fault the
// rank analyses look for.
var partialJobs = []struct {
	name string
	cfg  gen.Config
}{
	{"healthy", gen.Config{Seed: 21, Ranks: 8, RanksPerHost: 4, Steps: 6, Noise: true}},
	{"stop", gen.Config{Seed: 22, Ranks: 8, RanksPerHost: 4, Steps: 6, StopRank: gen.Rank(5), StopAfter: 40}},
	{"mismatch", gen.Config{Seed: 23, Ranks: 8, RanksPerHost: 4, Steps: 6, MismatchRank: gen.Rank(2), MismatchCall: 30, MismatchKind: "dtype"}},
	{"abort", gen.Config{Seed: 24, Ranks: 8, RanksPerHost: 4, Steps: 6, AbortRank: gen.Rank(6)}},
	{"missing", gen.Config{Seed: 25, Ranks: 8, RanksPerHost: 4, Steps: 6, MissingRank: gen.Rank(3)}},
	{"watchdog", gen.Config{Seed: 26, Ranks: 8, RanksPerHost: 4, Steps: 6, WatchdogRank: gen.Rank(6), WatchdogSeq: 50}},
}

// TestPartialsLikeLogs summarizes each node's files of a job into a partial result, then runs
// every command that partials can answer over the partials and over all the files: the
// output must be the same, byte for byte, file names and line numbers included, exit status
// too. With --steps, the partials are made and read with the same selection. The jobs run
// side by side: each is a few hundred runs of the command, and run keeps no state between
// calls. With -short the jobs have half the ranks (shortJob), and each job runs every
// command in one of the two formats, alternating, so that each format of each command is run
// for three of the six jobs.
func TestPartialsLikeLogs(t *testing.T) {
	for ji, job := range partialJobs {
		t.Run(job.name, func(t *testing.T) {
			t.Parallel()
			cfg := job.cfg
			if testing.Short() {
				cfg = shortJob(cfg)
			}
			dir := t.TempDir()
			files, err := gen.WriteFiles(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			half := len(files) / 2
			sels := [][]string{nil, {"--steps", "2-4"}}
			if testing.Short() {
				sels = sels[:1] // -short: the selection's partials are a second pass of the same
			}
			for _, sel := range sels {
				parts := []string{filepath.Join(dir, "node0.part"), filepath.Join(dir, "node1.part")}
				for i, nodeFiles := range [][]string{files[:half], files[half:]} {
					args := append(append([]string{"summarize", "-o", parts[i]}, sel...), nodeFiles...)
					if _, stderr, code := runCLI(t, "", args...); code != exitOK {
						t.Fatalf("%v: exit %d: %s", args, code, stderr)
					}
				}
				for i, cmd := range []string{"report", "stats", "hist", "agg", "steps", "ranks", "comms", "hang", "check", "info", "diagnose"} {
					for k, format := range []string{"table", "json"} {
						if testing.Short() && ((i+k+ji)%2 != 0 || (i+ji)%3 != 0) {
							continue // -short: each command in two of the six jobs, one format in each (go test ./... runs all, both formats)
						}
						args := append([]string{cmd, "--format", format}, sel...)
						wantOut, wantErr, wantCode := runCLI(t, "", append(args, files...)...)
						gotOut, gotErr, gotCode := runCLI(t, "", append(args, parts...)...)
						what := fmt.Sprintf("%s %v", job.name, args)
						if gotCode != wantCode || gotErr != wantErr {
							t.Errorf("%s: exit %d, stderr %q over partials; %d, %q over the logs", what, gotCode, gotErr, wantCode, wantErr)
						}
						if diff := cmp.Diff(wantOut, gotOut); diff != "" {
							t.Errorf("%s: output (-logs +partials):\n%s", what, diff)
						}
					}
				}
			}
		})
	}
}

// shortJob is cfg with 4 ranks on 2 hosts instead of 8 on 2, each fault on the same rank
// modulo 4: what TestPartialsLikeLogs compares (partials against their logs) does not depend
// on the job's size, and a few hundred runs of the command over half the lines take half
// the time.
func shortJob(cfg gen.Config) gen.Config {
	cfg.Ranks, cfg.RanksPerHost = 4, 2
	for _, r := range []**int{&cfg.StopRank, &cfg.MismatchRank, &cfg.AbortRank, &cfg.MissingRank, &cfg.WatchdogRank} {
		if *r != nil {
			*r = gen.Rank(**r % cfg.Ranks)
		}
	}
	return cfg
}

// TestPartialRefusals: a partial cannot stand in for the lines themselves (split, calls),
// nor for another step selection; each is a one-line error naming the file, exit 1.
func TestPartialRefusals(t *testing.T) {
	dir := t.TempDir()
	files, err := gen.WriteFiles(dir, partialJobs[0].cfg)
	if err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "all.part")
	if _, stderr, code := runCLI(t, "", append([]string{"summarize", "-o", part}, files...)...); code != exitOK {
		t.Fatalf("summarize: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{{"split", part}, {"calls", part}, {"report", "--steps", "1-2", part}} {
		out, stderr, code := runCLI(t, "", args...)
		if code != exitData || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, part) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q: want exit 1, nothing on stdout, one line naming %s", args, code, out, stderr, part)
		}
	}
}

// TestSummarizeFailedRunWritesNothing: a run that could not read an input leaves no partial
// behind, and an existing one untouched.
func TestSummarizeFailedRunWritesNothing(t *testing.T) {
	dir := t.TempDir()
	part := filepath.Join(dir, "x.part")
	if err := os.WriteFile(part, []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, code := runCLI(t, "", "summarize", "-o", part, filepath.Join(dir, "missing.log"))
	if b, _ := os.ReadFile(part); code != exitData || string(b) != "before" {
		t.Errorf("exit %d, %s holds %q: want exit 1 and the file untouched", code, part, b)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".nccllog-partial-*")); len(m) > 0 {
		t.Errorf("left behind: %v", m)
	}
}

// TestSummarizeDeterministic: the same logs give the same partial result, byte for byte,
// run after run and whatever the number of workers (which worker sampled which chunk once
// leaked into the file).
func TestSummarizeDeterministic(t *testing.T) {
	dir := t.TempDir()
	cfg := gen.Config{Seed: 31, Ranks: 8, RanksPerHost: 4, Steps: 12, Noise: true, StopRank: gen.Rank(3), StopAfter: 60}
	files, err := gen.WriteFiles(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var first []byte
	for i, jobs := range []string{"1", "3", "3", "2", "4", "3"} {
		part := filepath.Join(dir, fmt.Sprintf("run%d.part", i))
		args := append([]string{"summarize", "--jobs", jobs, "-o", part}, files...)
		if _, stderr, code := runCLI(t, "", args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		b, err := os.ReadFile(part)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Fatalf("summarize --jobs %s wrote other bytes than the first run (--jobs 1)", jobs)
		}
	}
}

// TestPartialBoundaryRefusal: with every step selected the boundary still decides which step
// each call is counted in (hang names the steps), so a partial made with another boundary
// is refused, and the message names both boundaries, not "every step" twice.
func TestPartialBoundaryRefusal(t *testing.T) {
	dir := t.TempDir()
	files, err := gen.WriteFiles(dir, partialJobs[1].cfg)
	if err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "start.part")
	if _, stderr, code := runCLI(t, "", append([]string{"summarize", "--boundary", "start", "-o", part}, files...)...); code != exitOK {
		t.Fatalf("summarize: exit %d: %s", code, stderr)
	}
	start, _, startCode := runCLI(t, "", append([]string{"hang", "--boundary", "start"}, files...)...)
	end, _, _ := runCLI(t, "", append([]string{"hang"}, files...)...)
	if start == end {
		t.Fatalf("hang prints the same with either boundary; this test needs a job where they differ")
	}
	if out, stderr, code := runCLI(t, "", "hang", "--boundary", "start", part); code != startCode || out != start {
		t.Errorf("hang --boundary start over its partial: exit %d, %s; want the output over the logs", code, stderr)
	}
	_, stderr, code := runCLI(t, "", "hang", part)
	want := "made with every step with --boundary start, this run selects every step with --boundary end"
	if code != exitData || !strings.Contains(stderr, want) || !strings.Contains(stderr, part) {
		t.Errorf("hang over a partial made with --boundary start: exit %d, %q; want exit 1 naming %s and saying %q", code, stderr, part, want)
	}
}

// TestPartialSameLogTwice: a partial result carries a digest of each log it summarizes, so
// a log that would be read twice, at least once through a partial, is an error naming both
// files: the partial given twice, two partials of one log, a partial beside its own log.
// Each counted the log's calls twice, and hang then blamed "more than one job".
func TestPartialSameLogTwice(t *testing.T) {
	dir := t.TempDir()
	files, err := gen.WriteFiles(dir, partialJobs[1].cfg)
	if err != nil {
		t.Fatal(err)
	}
	part, other, copied := filepath.Join(dir, "a.part"), filepath.Join(dir, "b.part"), filepath.Join(dir, "copy.part")
	for _, p := range []struct {
		out   string
		files []string
	}{{part, files[:2]}, {other, files[2:]}, {copied, files[1:2]}} {
		if _, stderr, code := runCLI(t, "", append([]string{"summarize", "-o", p.out}, p.files...)...); code != exitOK {
			t.Fatalf("summarize: exit %d: %s", code, stderr)
		}
	}
	cases := []struct {
		args  []string
		want  string
		names []string
	}{
		{[]string{part, other, part}, "the partial result " + strconv.Quote(part) + " is given twice", []string{part}},
		{[]string{part, files[0]}, strconv.Quote(files[0]) + " is also summarized in the partial result " + strconv.Quote(part), []string{part, files[0]}},
		{[]string{files[0], part}, strconv.Quote(files[0]) + " is also summarized in the partial result " + strconv.Quote(part), []string{part, files[0]}},
		{[]string{part, copied}, strconv.Quote(part) + " and " + strconv.Quote(copied) + " both summarize " + strconv.Quote(files[1]), []string{part, copied}},
	}
	for _, c := range cases {
		for _, cmd := range []string{"report", "hang"} {
			out, stderr, code := runCLI(t, "", append([]string{cmd}, c.args...)...)
			if code != exitData || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("%s %v: exit %d, stdout %.100q, stderr %q: want exit 1 and one line saying %q", cmd, c.args, code, out, stderr, c.want)
			}
		}
	}
	// The partials of disjoint logs, and a log beside the partial of others, are no duplicates.
	for _, args := range [][]string{{part, other}, {other, files[0]}} {
		if _, stderr, code := runCLI(t, "", append([]string{"report"}, args...)...); code != exitOK {
			t.Errorf("report %v: exit %d, %s", args, code, stderr)
		}
	}
}

// TestPartialOldVersion: a partial of format 1 (before digests) is refused, saying which
// format it is and what to do.
func TestPartialOldVersion(t *testing.T) {
	dir := t.TempDir()
	p := loadPartial(t, summarizedJob(t, dir))
	p.Version = 1
	path := filepath.Join(dir, "old.part")
	savePartial(t, path, p)
	refusedSmall(t, path, fmt.Sprintf("written in partial-result format 1 by another nccllog, this nccllog reads format %d: summarize the logs again with this nccllog", stages.PartialVersion), "report")
}

// TestSummarizeRefusesTerminal: summarize to a standard output that is a terminal (with no -o,
// or -o -) is a usage error before any input is read, as gzip and zstd refuse; to a pipe or
// a file, and with -o FILE on a terminal, it writes the partial result.
func TestSummarizeRefusesTerminal(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "job.log")
	if err := os.WriteFile(log, []byte("plain line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "job.part")
	const refused = "nccllog: summarize writes binary data: give -o FILE or redirect standard output\n"
	cases := []struct {
		what    string
		term    terminals
		args    []string
		code    int
		stderr  string
		wantOut bool
	}{
		{"terminal", pretend{stdout: true}, []string{log}, exitUsage, refused, false},
		{"terminal -o -", pretend{stdout: true}, []string{"-o", "-", log}, exitUsage, refused, false},
		{"terminal, input missing", pretend{stdout: true}, []string{filepath.Join(dir, "none.log")}, exitUsage, refused, false},
		{"terminal -o FILE", pretend{stdout: true}, []string{"-o", part, log}, exitOK, "", false},
		{"pipe", pretend{stderr: true}, []string{log}, exitOK, "", true},
		{"no terminals known", nil, []string{log}, exitOK, "", true},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"summarize"}, c.args...), env{parsers: testParsers(), stdin: strings.NewReader(""), stdout: &out, stderr: &errb, term: c.term})
		if code != c.code || errb.String() != c.stderr || (out.Len() > 0) != c.wantOut {
			t.Errorf("%s: exit %d, %d bytes out, stderr %q; want exit %d, output %v, stderr %q",
				c.what, code, out.Len(), errb.String(), c.code, c.wantOut, c.stderr)
		}
	}
	if _, err := os.Stat(part); err != nil {
		t.Errorf("-o FILE on a terminal: %v", err)
	}
}

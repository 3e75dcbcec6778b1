package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// diffHTML runs diff --html on two files and returns the page.
func diffHTML(t *testing.T, a, b string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "vs.html")
	stdout, stderr, code := runCLI(t, "", "diff", "--html", out, a, b)
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

// TestDiffHTMLOneThing: two generated runs that differ in their step time: the page opens with
// that difference, in diff's words, and draws both runs' series, named by side and input.
func TestDiffHTMLOneThing(t *testing.T) {
	base := genLog(t, gen.Config{Seed: 1, Ranks: 16, Steps: 6})
	a, b := writeTemp(t, "good.log", base), writeTemp(t, "slow.log", scaleSteps(base, 1.5))
	page := diffHTML(t, a, b)
	rows := strings.Index(page, "<tr><td>")
	if rows < 0 || !strings.HasPrefix(page[rows:], "<tr><td>steps</td><td>step time median</td>") {
		t.Errorf("the first difference is not the step time: %.200s", page[max(rows, 0):])
	}
	for _, want := range []string{`"A: ` + a + `"`, `"B: ` + b + `"`, `["vs-step-time", {`, `["vs-ops-calls", {`, `["vs-hist-0", {`, "collectives: same"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "no differences") {
		t.Error("page says no differences")
	}
	out := filepath.Join(t.TempDir(), "exit.html")
	if _, stderr, code := runCLI(t, "", "diff", "--exit-code", "--html", out, a, b); code != exitData {
		t.Errorf("--exit-code --html: exit %d, want %d: %s", code, exitData, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("--exit-code --html: %v", err)
	}
}

// TestDiffHTMLSelf: a run against itself has no differences, says so, and still draws.
func TestDiffHTMLSelf(t *testing.T) {
	log := writeTemp(t, "job.log", genLog(t, gen.Config{Seed: 3, Ranks: 8, Steps: 4}))
	page := diffHTML(t, log, log)
	for _, want := range []string{"<p>no differences</p>", `["vs-step-time", {`, `["vs-ops-bytes", {`, "steps: same"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// TestDiffHTMLInit: runs with init timing lines get the init section, drawn for both.
func TestDiffHTMLInit(t *testing.T) {
	setup := writeTemp(t, "setup.log", setupLog(t, gen.SetupConfig{Family: "2.26"}))
	page := diffHTML(t, setup, setup)
	if !strings.Contains(page, "<h2>Init timings</h2>") || !strings.Contains(page, `["vs-init", {`) {
		t.Error("the init section is not drawn")
	}
}

// TestDiffHTMLUsage: --html with --format, or without two sides, is a usage error of one line,
// and a side that cannot be read leaves no page.
func TestDiffHTMLUsage(t *testing.T) {
	log := writeTemp(t, "job.log", genLog(t, gen.Config{Seed: 3, Ranks: 8, Steps: 2}))
	out := filepath.Join(t.TempDir(), "vs.html")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--format", "json", log, log}, exitUsage, "nccllog: diff: --html writes the page in place of the table: it takes no --format json\n"},
		{[]string{log}, exitUsage, "nccllog: diff: wants two inputs, A B (one each), or --a A... --b B... (one or more each)\n"},
		{[]string{"--a", log}, exitUsage, "nccllog: diff: wants two inputs, A B (one each), or --a A... --b B... (one or more each)\n"},
		{[]string{log, filepath.Join(t.TempDir(), "missing.log")}, exitData, ""},
	} {
		_, stderr, code := runCLI(t, "", append([]string{"diff", "--html", out}, c.args...)...)
		if code != c.code || (c.want != "" && stderr != c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", c.args, code, stderr, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: the page was written", c.args)
		}
	}
}

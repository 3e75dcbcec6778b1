package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	out, stderr, code := runCLI(t, "", "version")
	if code != exitOK || stderr != "" || !strings.HasPrefix(out, "nccllog ") || !strings.Contains(out, runtime.Version()) {
		t.Errorf("version: status %d, stdout %q, stderr %q", code, out, stderr)
	}
	got := vcsText([]debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-23T15:00:00Z"},
		{Key: "vcs.modified", Value: "true"}}, "none")
	if got != "abc123 (2026-11-23T15:00:00Z), with uncommitted changes" {
		t.Errorf("vcsText = %q", got)
	}
	if _, _, code := runCLI(t, "", "version", "extra"); code != exitUsage {
		t.Errorf("version extra: status %d", code)
	}
	// --version, as most tools spell it, prints the same.
	if got, stderr, code := runCLI(t, "", "--version"); code != exitOK || got != out {
		t.Errorf("--version: status %d, stdout %q, stderr %q; want version's %q", code, got, stderr, out)
	}
}

// completeBash sources the bash script and returns what it offers for the words typed so far
// (the last one being completed).
func completeBash(t *testing.T, bash, script string, words ...string) []string {
	t.Helper()
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c",
		`source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _nccllog; printf '%s\n' "${COMPREPLY[@]}"`,
		script, "nccllog")
	cmd.Args = append(cmd.Args, words...)
	cmd.Dir = t.TempDir()
	for _, name := range []string{"run 1", "run 2"} { // names with spaces stay one word
		if err := os.Mkdir(filepath.Join(cmd.Dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v: %s", err, out)
	}
	return slices.DeleteFunc(strings.Split(string(out), "\n"), func(s string) bool { return s == "" })
}

func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	out, _, code := runCLI(t, "", "completion", "bash")
	if code != exitOK {
		t.Fatalf("completion bash: status %d", code)
	}
	script := filepath.Join(t.TempDir(), "nccllog.bash")
	os.WriteFile(script, []byte(out), 0o644)
	for _, c := range []struct {
		words []string
		want  []string
	}{
		{[]string{"c"}, []string{"calls", "comms", "check", "completion"}},
		{[]string{"h"}, []string{"hist", "hang", "help"}},
		{[]string{"calls", "--format", ""}, []string{"table", "json", "csv", "ndjson", "parquet", "trace"}},
		{[]string{"report", "--h"}, []string{"--html", "--help"}},
		{[]string{"agg", "-f", "a"}, []string{"awk"}},
		{[]string{"split", "--boundary", ""}, []string{"end", "start"}},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish"}},
		{[]string{"help", "e"}, []string{"exit"}},
		{[]string{"help", "s"}, []string{"stats", "steps", "stragglers", "split", "summarize"}},
		{[]string{"help", "b"}, []string{"boundary"}},
		// bash splits --flag=value at '=' into three words.
		{[]string{"calls", "--format", "=", ""}, []string{"table", "json", "csv", "ndjson", "parquet", "trace"}},
		{[]string{"calls", "--format", "=", "n"}, []string{"ndjson"}},
		{[]string{"report", "--html", "=", "ru"}, []string{"run 1", "run 2"}},
		{[]string{"hang", "ru"}, []string{"run 1", "run 2"}},
		{[]string{"calls", "-"}, []string{"--steps", "--boundary", "--format", "-f", "--output", "-o", "--jobs", "-j", "--strict", "--quiet", "-q", "--help", "-h"}},
	} {
		got := completeBash(t, bash, script, c.words...)
		slices.Sort(got)
		want := slices.Sorted(slices.Values(c.want))
		if !slices.Equal(got, want) {
			t.Errorf("nccllog %s<TAB>: %q, want %q", strings.Join(c.words, " "), got, want)
		}
	}
}

// TestCompletionZshFish: the scripts name every command and flag; where the shell is
// installed, it parses them.
func TestCompletionZshFish(t *testing.T) {
	for _, shell := range []string{"zsh", "fish"} {
		out, _, code := runCLI(t, "", "completion", shell)
		if code != exitOK {
			t.Fatalf("completion %s: status %d", shell, code)
		}
		for _, want := range []string{"report", "version", "html", "output", "ndjson parquet", "end start"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s script lacks %q", shell, want)
			}
		}
		exe, err := exec.LookPath(shell)
		if err != nil {
			continue
		}
		script := filepath.Join(t.TempDir(), "nccllog."+shell)
		os.WriteFile(script, []byte(out), 0o644)
		if msg, err := exec.Command(exe, "-n", script).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v: %s", shell, err, msg)
		}
		if shell == "fish" {
			got, err := exec.Command(exe, "-c", "source $argv[1]; complete -C 'nccllog calls --format '", script).CombinedOutput()
			if err != nil || !strings.Contains(string(got), "parquet\t") || !strings.Contains(string(got), "ndjson\t") {
				t.Errorf("fish completes calls --format to %q (%v)", got, err)
			}
		}
	}
	if _, _, code := runCLI(t, "", "completion", "tcsh"); code != exitUsage {
		t.Errorf("completion tcsh: status %d", code)
	}
}

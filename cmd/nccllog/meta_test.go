package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
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

// completeBash sources the bash script once and returns, for each case (the words typed so
// far, the last one being completed), what it offers. One bash process completes the cases
// one after another, as an interactive shell calls the script's function for one TAB after
// another (a process a case took fifteen bash start-ups).
func completeBash(t *testing.T, bash, script string, cases [][]string) [][]string {
	t.Helper()
	const sep = "\x1e" // ends a case's offers; no completion holds it
	args := []string{"--norc", "--noprofile", "-c", `source "$0"
while (( $# )); do
	n=$1; shift
	COMP_WORDS=("${@:1:n}"); COMP_CWORD=$(( n - 1 )); _nccllog; printf '%s\n' "${COMPREPLY[@]}"
	shift "$n"
	printf '\x1e\n'
done`, script}
	for _, words := range cases {
		args = append(args, strconv.Itoa(1+len(words)), "nccllog")
		args = append(args, words...)
	}
	cmd := exec.Command(bash, args...)
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
	parts := strings.Split(string(out), sep+"\n")
	if len(parts) != len(cases)+1 || parts[len(cases)] != "" {
		t.Fatalf("bash answered %d cases, want %d: %q", len(parts)-1, len(cases), out)
	}
	got := make([][]string, len(cases))
	for i := range cases {
		got[i] = slices.DeleteFunc(strings.Split(parts[i], "\n"), func(s string) bool { return s == "" })
	}
	return got
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
	cases := []struct {
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
	}
	var words [][]string
	for _, c := range cases {
		words = append(words, c.words)
	}
	offers := completeBash(t, bash, script, words)
	for i, c := range cases {
		got := offers[i]
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

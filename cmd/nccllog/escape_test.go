package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "",
		"gpu-node-01:8415":          "gpu-node-01:8415",
		"café … ∞ \ufffd":           "café … ∞ \ufffd", // UTF-8, U+FFFD as printed, and a backslash: \
		`C:\logs`:                   `C:\logs`,
		"a\x1b[2Jb":                 `a\e[2Jb`,
		"tab\tnl\ncr\r":             `tab\tnl\ncr\r`,
		"\x00\x07\x7f":              `\x00\x07\x7f`,
		"csi\xc2\x9b31m":            `csi\xc2\x9b31m`, // U+009B, which some terminals obey as ESC [
		"bad\xff\xfe utf8 \xe2\x82": `bad\xff\xfe utf8 \xe2\x82`,
		"nbsp\u00a0ok":              "nbsp\u00a0ok",
	} {
		if got := escaped(in); got != want {
			t.Errorf("escaped(%q) = %q, want %q", in, got, want)
		}
		if plainText(in) != (in == want) {
			t.Errorf("plainText(%q) = %v", in, plainText(in))
		}
	}
}

// TestPrintfEscapesArgs: printf escapes its string, error and Stringer arguments, and leaves
// its format and numbers (a Stringer under %d too).
func TestPrintfEscapesArgs(t *testing.T) {
	var b strings.Builder
	w := newOutput(&b)
	w.printf("%s|%v|%q|%d|%-6s|\n", "a\rb", errors.New("e\x1b"), "q\n", 42, "\x07")
	w.printf("%v|%d\n", stringerInt(3), stringerInt(3))
	w.flush()
	if want := "a\\rb|e\\e|\"q\\\\n\"|42|\\x07  |\n<3>|3\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

type stringerInt int

func (s stringerInt) String() string { return fmt.Sprintf("<%d>", int(s)) }

// craftedLog writes the sample with a WARN line's text holding an OSC title sequence, a bell
// and a carriage return that forges a line, under a file name that holds a newline and ESC.
func craftedLog(t *testing.T) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "job\x1b[2J\nnccllog: all good\r.log")
	s := strings.ReplaceAll(readFile(t, sampleLog), "Got async event : port error",
		"Got async \x1b]0;pwned\x07event\rnccllog: all good")
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	return name
}

// TestTextOutputEscapesLogBytes: the text a crafted log puts into table and free-text output
// reaches it escaped, the tables still aligned; JSON and CSV keep the bytes exact.
func TestTextOutputEscapesLogBytes(t *testing.T) {
	in := craftedLog(t)
	for _, args := range [][]string{{"info"}, {"report"}, {"calls", "--steps", "0"}, {"ranks"}, {"hang"}, {"stats"}} {
		stdout, stderr, code := runCLI(t, "", append(args, in)...)
		if code != exitOK && code != exitFound {
			t.Fatalf("%v: status %d, stderr %q", args, code, stderr)
		}
		for i, line := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(line, "nccllog: all good") || strings.ContainsFunc(line, func(r rune) bool {
				return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == utf8.RuneError
			}) {
				t.Errorf("%v: line %d holds a control or a forged line: %q", args, i+1, line)
			}
		}
	}
	stdout, _, _ := runCLI(t, "", "info", in)
	table := stdout[strings.Index(stdout, "== WARNs by template ==\n")+len("== WARNs by template ==\n"):]
	rows := strings.Split(table[:strings.Index(table, "\n\n")], "\n")
	if !strings.Contains(rows[1], `Got async \e]N;pwned\x07event\rnccllog: all good`) {
		t.Errorf("the WARN row, escaped: %q", rows[1])
	}
	for _, r := range rows[1:] {
		if utf8.RuneCountInString(r) != utf8.RuneCountInString(rows[0]) {
			t.Errorf("row %q is not as wide as the header %q", r, rows[0])
		}
	}
	csv, _, _ := runCLI(t, "", "calls", "--format", "csv", "--steps", "0", in)
	if !strings.Contains(csv, `"`+in+`"`) {
		t.Errorf("calls --format csv does not hold the file name as it is")
	}
}

// TestErrorIsOneLine: an error naming a file with a newline in its name is still one line.
func TestErrorIsOneLine(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "x\nnccllog: all good\x1b]0;t\x07")
	_, stderr, code := runCLI(t, "", "stats", missing)
	if code != exitData || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "nccllog: ") ||
		!strings.Contains(stderr, strconv.Quote(missing)+": no such file") {
		t.Errorf("status %d, stderr %q: want one line with the name quoted", code, stderr)
	}
}

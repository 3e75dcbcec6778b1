package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
)

// pretend is a terminals that says what the test wants.
type pretend struct{ stderr, stdout bool }

func (p pretend) stderrIsTerminal() bool { return p.stderr }
func (p pretend) stdoutIsTerminal() bool { return p.stdout }

// progressLog writes a generated log of about 24 MiB (8 under -short), large enough that
// reading it with one worker outlasts many redraws of a bar redrawn every few milliseconds.
// The log is generated once for the tests that use it (bigLog).
func progressLog(t *testing.T) (string, []byte) {
	t.Helper()
	data, err := bigLog()
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "big.log")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return name, data
}

// bigLogMiB is bigLog's size in MiB.
func bigLogMiB() int64 {
	if testing.Short() {
		return 8
	}
	return 24
}

// bigLog is progressLog's text, generated on first use. Under -short it is 8 MiB: reading
// that with one worker still takes tens of 2 ms redraws, and the 24 MiB log's nine reads were
// a tenth of the package's -short time.
var bigLog = sync.OnceValues(func() ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(int(bigLogMiB()+1) << 20) // at once, not doubling through the sizes below it
	_, err := gen.Write(&buf, gen.Config{Seed: 3, Ranks: 16, Size: bigLogMiB() << 20})
	return buf.Bytes(), err
})

// runWithProgress runs nccllog with a progress setup that shows the bar from 1 MiB on and
// redraws it every 2 ms, on stderr and stdout that are terminals or not as term says.
func runWithProgress(t *testing.T, term pretend, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out bytes.Buffer
	stderr, code = runWithProgressTo(t, &out, term, stdin, args...)
	return out.String(), stderr, code
}

// runWithProgressTo is runWithProgress writing stdout to w, for a test that only reads
// stderr: split's and calls' output is the whole 8 MiB log or more.
func runWithProgressTo(t *testing.T, w io.Writer, term pretend, stdin []byte, args ...string) (stderr string, code int) {
	t.Helper()
	var errb bytes.Buffer
	setup := &progressSetup{term: term, from: 1 << 20, refresh: 2 * time.Millisecond}
	code = run(args, env{parsers: testParsers(), stdin: bytes.NewReader(stdin), stdout: w, stderr: &errb, progress: setup})
	return errb.String(), code
}

// cleared is what the progress library writes last when it removes its bar: the cursor up
// to the line, and the screen erased from there.
const cleared = "\x1b[1A\x1b[J"

// TestProgressBar: on a terminal a large input gets a progress bar on stderr (bytes of the
// total, rate, time left; bytes and rate alone for standard input, whose size is unknown),
// removed before the run ends; stdout is the same as without it.
func TestProgressBar(t *testing.T) {
	name, data := progressLog(t)
	cases := []struct {
		what  string
		stdin []byte
		args  []string
		has   []string
		not   []string
	}{
		{"file", nil, []string{"report", "--jobs", "1", name}, []string{"read ", fmt.Sprintf(" / %d", bigLogMiB()), "iB/s", " left "}, nil},
		{"stdin", data, []string{"report", "--jobs", "1", "-"}, []string{"read ", "iB/s"}, []string{" / ", " left "}},
	}
	for _, c := range cases {
		want, _, _ := runCLI(t, string(c.stdin), c.args...)
		out, errs, code := runWithProgress(t, pretend{stderr: true}, c.stdin, c.args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.what, code, errs)
		}
		if out != want {
			t.Errorf("%s: stdout differs from a run without the progress bar", c.what)
		}
		for _, s := range c.has {
			if !strings.Contains(errs, s) {
				t.Errorf("%s: the progress bar lacks %q; stderr:\n%q", c.what, s, tail(errs))
			}
		}
		for _, s := range c.not {
			if strings.Contains(errs, s) {
				t.Errorf("%s: the progress bar has %q; stderr:\n%q", c.what, s, tail(errs))
			}
		}
		if !strings.HasSuffix(errs, cleared) {
			t.Errorf("%s: the progress bar is not removed at the end; stderr ends:\n%q", c.what, tail(errs))
		}
	}
}

// TestNoProgressBar: no progress bar into a file or pipe, with --quiet or -q, for an input
// below the size that shows it, and for a command that streams its output to stdout when
// stdout is the same terminal (split into a file does get one).
func TestNoProgressBar(t *testing.T) {
	name, _ := progressLog(t)
	small := filepath.Join("..", "..", "testdata", "sample.log")
	tty, both := pretend{stderr: true}, pretend{stderr: true, stdout: true}
	cases := []struct {
		what string
		term pretend
		args []string
		line bool
	}{
		{"stderr no terminal", pretend{stdout: true}, []string{"report", "--jobs", "1", name}, false},
		{"--quiet", tty, []string{"report", "--jobs", "1", "--quiet", name}, false},
		{"-q", tty, []string{"stats", "-q", "--jobs", "1", name}, false},
		{"small input", tty, []string{"report", "--jobs", "1", small}, false},
		{"split to the terminal", both, []string{"split", "--jobs", "1", name}, false},
		{"calls to the terminal", both, []string{"calls", "--jobs", "1", name}, false},
		{"split to a file", tty, []string{"split", "--jobs", "1", name}, true},
		{"report to the terminal", both, []string{"report", "--jobs", "1", name}, true},
	}
	for _, c := range cases {
		if testing.Short() && (c.what == "--quiet" || c.what == "calls to the terminal") {
			continue // -short: -q and split to the terminal stand for these (go test ./... runs all eight)
		}
		if c.what == "small input" {
			st, err := os.Stat(small)
			if err != nil || st.Size() >= 1<<20 {
				t.Fatalf("%s is not below the 1 MiB the test shows the bar from (%v)", small, err)
			}
		}
		// Where no bar is wanted, stdout goes to io.Discard: split's output is the whole log.
		// Where one is, to a buffer as before: the bar shows once a redraw finds the run still
		// going, and a run into io.Discard ends sooner.
		var stdout io.Writer = io.Discard
		if c.line {
			stdout = new(bytes.Buffer)
		}
		errs, code := runWithProgressTo(t, stdout, c.term, nil, c.args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.what, code, errs)
		}
		if got := strings.Contains(errs, "iB/s"); got != c.line {
			t.Errorf("%s: progress bar %v, want %v; stderr:\n%q", c.what, got, c.line, tail(errs))
		}
	}
}

// tail is the end of a long stderr, for messages.
func tail(s string) string { return s[max(0, len(s)-300):] }

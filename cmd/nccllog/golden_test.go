package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sampleLog = "../../testdata/sample.log"

// TestCommandGolden holds every command's output on the bundled sample log to the files under
// testdata/golden; run `go test ./cmd/nccllog -update` to rewrite them after a deliberate change.
func TestCommandGolden(t *testing.T) {
	cases := [][]string{
		{"report"},
		{"report", "--format", "json"},
		{"report", "--steps", "5-6"}, {"report", "--steps", "5-6", "--strict"},
		{"stats", "--steps", "5-6", "--boundary", "start"},
		{"stats"}, {"stats", "--format", "csv"}, {"stats", "--format", "json"},
		{"hist"}, {"hist", "--format", "csv"}, {"hist", "--format", "json"},
		{"agg"}, {"agg", "--format", "csv"}, {"agg", "--steps", "10-12"},
		{"steps"}, {"steps", "--format", "csv"}, {"steps", "--steps", "3-5", "--format", "json"},
		{"calls", "--steps", "7"}, {"calls", "--steps", "7", "--format", "csv"},
		{"calls", "--steps", "7", "--boundary", "start", "--format", "json"},
		{"split", "--steps", "7-8"},
		{"split", "--steps", "7-8", "--boundary", "start"},
		{"ranks"}, {"ranks", "--format", "csv"}, {"comms"}, {"comms", "--format", "json"},
		{"hang"}, {"hang", "--format", "json"}, {"check"}, {"check", "--format", "csv"},
		{"--help"}, {"report", "--help"}, {"split", "--help"}, {"hang", "--help"}, {"diff", "--help"},
		{"help", "boundary"}, {"help", "input"}, {"help", "output"}, {"help", "exit"},
	}
	for _, args := range cases {
		name := strings.ReplaceAll(strings.Join(args, "_"), "-", "")
		t.Run(name, func(t *testing.T) {
			full := append(append([]string{}, args...), sampleLog)
			if strings.Contains(name, "help") {
				full = args
			}
			got, stderr, code := runCLI(t, "", full...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			checkGolden(t, filepath.Join("testdata", "golden", name+".txt"), got)
		})
	}
}

// TestStdin: no file argument, or -, reads standard input, with the same result.
func TestStdin(t *testing.T) {
	data, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	fromFile, _, _ := runCLI(t, "", "stats", sampleLog)
	for _, args := range [][]string{{"stats", "-"}, {"stats"}} {
		got, stderr, code := runCLI(t, string(data), args...)
		if code != 0 || got != fromFile {
			t.Errorf("nccllog %v < sample: exit %d, stderr %q\n%s", args, code, stderr, cmp.Diff(fromFile, got))
		}
	}
}

// TestExitStatus: usage errors exit 2, unreadable input 1, and both say why in one line.
func TestExitStatus(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"nosuch"}, 2, `unknown command "nosuch"`},
		{[]string{"stats", "--format", "xml", sampleLog}, 2, "--format must be one of"},
		{[]string{"stats", "--steps", "9-3", sampleLog}, 2, "--steps wants A-B"},
		{[]string{"stats", "--boundary", "middle", sampleLog}, 2, "--boundary must be end or start"},
		{[]string{"stats", "--bogus", sampleLog}, 2, "unknown flag: --bogus"},
		{[]string{"stats", "no/such/file.log"}, 1, "no/such/file.log"},
		{[]string{"split", "--steps", "1-2", sampleLog}, 0, ""},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(t, "", c.args...)
		if code != c.code {
			t.Errorf("nccllog %v: exit %d, want %d (stderr %q)", c.args, code, c.code, stderr)
		}
		if c.msg != "" && (!strings.HasPrefix(stderr, "nccllog: ") || !strings.Contains(stderr, c.msg) || strings.Count(stderr, "\n") != 1) {
			t.Errorf("nccllog %v: stderr %q, want one line starting nccllog: and containing %q", c.args, stderr, c.msg)
		}
	}
}

// TestStrict: --strict turns a malformed line into exit 1 naming the file and line; without
// it the line is counted and shown on stderr (by the commands that class lines). Line 7 of
// testdata/strict.log is NCCL output whose head another process's output ate, behind a Ray
// prefix, among whole lines, a progress bar and a prefix with nothing behind it.
func TestStrict(t *testing.T) {
	log := filepath.Join("testdata", "strict.log")
	for _, cmdName := range []string{"stats", "split", "report"} {
		out, stderr, code := runCLI(t, "", cmdName, "--strict", log)
		if code != 1 || !strings.Contains(stderr, log+":7: malformed line") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s --strict: exit %d, stderr %q", cmdName, code, stderr)
		}
		if cmdName != "split" && out != "" {
			t.Errorf("%s --strict printed results it cannot vouch for:\n%s", cmdName, out)
		}
		_, stderr, code = runCLI(t, "", cmdName, log)
		// split reads only step markers unless --strict asks it to class every line.
		if code != 0 || (cmdName != "split") != strings.Contains(stderr, log+":7: malformed: ") {
			t.Errorf("%s: exit %d, stderr %q", cmdName, code, stderr)
		}
	}
}

// TestClosedPipe: when the reader of the output goes away (| head), the run ends quietly
// with status 0.
func TestClosedPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	var errb strings.Builder
	code := run([]string{"split", sampleLog}, env{parsers: testParsers(), stdin: strings.NewReader(""), stdout: w, stderr: &errb})
	if code != 0 || errb.String() != "" {
		t.Errorf("split into a closed pipe: exit %d, stderr %q", code, errb.String())
	}
}

// TestStrictStopsStreaming: split and calls --strict stop at the chunk that holds the first
// malformed line; they do not write everything and then fail.
func TestStrictStopsStreaming(t *testing.T) {
	good := "h:1:1 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 4 datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6\n"
	bad := "count 4 datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6\n" // a collective line's cut-off tail
	// n lines before the bad one, and as many after it: about 5 MiB, several chunks.
	const n = 40000
	before := n * len(good)
	path := filepath.Join(t.TempDir(), "strict-long.log")
	// Straight to the file: the 10 MiB text built in memory, and its copy for the write, were
	// a fifth of the test's time.
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range 2*n + 1 {
		if i == n {
			w.WriteString(bad)
		} else {
			w.WriteString(good)
		}
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	wantLine := fmt.Sprintf("%s:%d: malformed line", path, n+1)
	cmds := []string{"split", "calls"}
	if testing.Short() { // the two read their input the same way
		cmds = cmds[:1]
	}
	for _, cmdName := range cmds {
		out, stderr, code := runCLI(t, "", cmdName, "--strict", path)
		if code != exitData || !strings.Contains(stderr, wantLine) {
			t.Errorf("%s --strict: exit %d, stderr %q; want exit 1 naming %s", cmdName, code, stderr, wantLine)
		}
		if strings.Contains(out, "\n"+bad) || len(out) >= before {
			t.Errorf("%s --strict wrote %d bytes, past the malformed line (the lines before it are %d bytes)", cmdName, len(out), before)
		}
	}
}

package main

import (
	"bytes"
	"strings"
	"syscall"
	"testing"
)

// fullDisk is a stdout on a full disk.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestHelpAndUsage: "help COMMAND" prints that command's help; help that cannot be written
// fails; usage errors name the command once; --jobs 0 is refused.
func TestHelpAndUsage(t *testing.T) {
	var want, got, errb bytes.Buffer
	runMain([]string{"report", "--help"}, env{stdout: &want, stderr: &errb})
	if code := runMain([]string{"help", "report"}, env{stdout: &got, stderr: &errb}); code != exitOK || got.String() != want.String() {
		t.Errorf("help report: exit %d, output is not report's help:\n%.200s", code, got.String())
	}
	errb.Reset()
	if code := runMain([]string{"--help"}, env{stdout: fullDisk{}, stderr: &errb}); code == exitOK || !strings.Contains(errb.String(), "no space") {
		t.Errorf("--help on a full disk: exit %d, stderr %q; want a failure that says why", code, errb.String())
	}
	for _, args := range [][]string{{"stats", "--format", "xml"}, {"stats", "--jobs", "0"}, {"stats", "--jobs", "-3"}, {"steps", "--format", "awk"}} {
		errb.Reset()
		code := runMain(args, env{parsers: testParsers(), stdin: strings.NewReader(""), stdout: &got, stderr: &errb})
		if code != exitUsage || strings.Contains(errb.String(), args[0]+": "+args[0]) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and the command named once", args, code, errb.String(), exitUsage)
		}
	}
}

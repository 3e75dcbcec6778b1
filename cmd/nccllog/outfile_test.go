package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// callsCSVTo runs calls --format csv -o out on the sample and returns what standard output
// gets without -o.
func callsCSVTo(t *testing.T, out string) string {
	t.Helper()
	want, _, _ := runCLI(t, "", "calls", "--format", "csv", sampleLog)
	if stdout, stderr, code := runCLI(t, "", "calls", "--format", "csv", "-o", out, sampleLog); code != exitOK || stdout != "" || stderr != "" {
		t.Fatalf("-o %s: status %d, stdout %q, stderr %q", out, code, stdout, stderr)
	}
	return want
}

// TestOutputFollowsSymlink: -o LINK replaces the file the link points to, through a chain of
// links, and the link stays a link.
func TestOutputFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "sub", "calls.csv")
	os.Mkdir(filepath.Dir(target), 0o755)
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	mid, link := filepath.Join(dir, "mid"), filepath.Join(dir, "link")
	if err := os.Symlink("sub/calls.csv", mid); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	os.Symlink(mid, link)
	want := callsCSVTo(t, link)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("-o replaced the link: %v, %v", fi.Mode(), err)
	}
	if got := readFile(t, target); got != want {
		t.Errorf("the link's target holds %d bytes, want %d", len(got), len(want))
	}
	if left, _ := os.ReadDir(filepath.Dir(target)); len(left) != 1 {
		t.Errorf("beside the target: %v", left)
	}
	// A dangling link is followed to where it points.
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("sub/new.csv", dangling)
	callsCSVTo(t, dangling)
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&fs.ModeSymlink == 0 || readFile(t, filepath.Join(dir, "sub", "new.csv")) != want {
		t.Errorf("dangling link: %v, %v", fi.Mode(), err)
	}
}

// TestOutputKeepsMode: a replaced file keeps its permissions; -o to a directory is refused.
func TestOutputKeepsMode(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "calls.csv")
	if err := os.WriteFile(out, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(out, 0o600) // whatever the umask
	want := callsCSVTo(t, out)
	fi, err := os.Stat(out)
	if err != nil || readFile(t, out) != want {
		t.Fatalf("%v; the file holds %q", err, readFile(t, out))
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after -o, want -rw-------", fi.Mode())
	}
	_, stderr, code := runCLI(t, "", "calls", "--format", "csv", "-o", dir, sampleLog)
	if code != exitData || stderr != "nccllog: creating "+strconv.Quote(dir)+": is a directory\n" {
		t.Errorf("-o DIR: status %d, stderr %q", code, stderr)
	}
}

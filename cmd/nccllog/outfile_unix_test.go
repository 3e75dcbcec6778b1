//go:build linux

package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/nccllog/nccllog/stages/stream"
)

// mknod makes a character device in a temporary directory (as /dev has them), skipping t
// where that is not permitted or the device cannot be opened there (a nodev mount). Tests
// never write to /dev itself: before -o wrote into devices, it replaced them.
func mknod(t *testing.T, name string, major, minor int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, major<<8|minor); err != nil {
		t.Skipf("mknod: %v", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("a device made here cannot be opened: %v", err)
	}
	f.Close()
	return path
}

// mknodFull is a /dev/full of the test's own: every write fails with ENOSPC.
func mknodFull(t *testing.T) string { return mknod(t, "full", 1, 7) }

// TestOutputIntoDevice: -o on a character device (a /dev/null of the test's own) writes into
// it and leaves it a device.
func TestOutputIntoDevice(t *testing.T) {
	null := mknod(t, "null", 1, 3)
	for _, args := range [][]string{{"calls", "--format", "csv", "-o"}, {"calls", "--format", "parquet", "-o"},
		{"summarize", "-o"}, {"report", "--html"}} {
		if _, stderr, code := runCLI(t, "", append(args, null, sampleLog)...); code != exitOK || stderr != "" {
			t.Errorf("%v: status %d, stderr %q", args, code, stderr)
		}
		if fi, err := os.Lstat(null); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("%v: %s is no longer a device: %v %v", args, null, fi.Mode(), err)
		}
		if left, _ := os.ReadDir(filepath.Dir(null)); len(left) != 1 {
			t.Errorf("%v: beside the device: %v", args, left)
		}
	}
}

// fifo makes a FIFO and reads all that is written into it, on a goroutine. The test holds
// the FIFO open for writing too, so that neither end's open waits for the other, and the
// reader sees its end when the test lets go (even when -o replaced the FIFO, as it did).
func fifo(t *testing.T) (string, func() []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	hold, err := os.OpenFile(path, os.O_RDWR, 0) // Linux opens a FIFO read-write at once
	if err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		defer r.Close()
		b, _ := io.ReadAll(r)
		got <- b
	}()
	return path, func() []byte {
		hold.Close()
		return <-got
	}
}

// TestOutputIntoFIFO: -o on a FIFO writes into it, CSV and Parquet alike (Parquet needs no
// seeking), and the FIFO stays a FIFO.
func TestOutputIntoFIFO(t *testing.T) {
	path, read := fifo(t)
	want := callsCSVTo(t, path)
	if got := read(); string(got) != want {
		t.Errorf("the FIFO's reader got %d bytes, want %d", len(got), len(want))
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO: %v %v", path, fi.Mode(), err)
	}

	path, read = fifo(t)
	if _, stderr, code := runCLI(t, "", "calls", "--format", "parquet", "-o", path, sampleLog); code != exitOK || stderr != "" {
		t.Fatalf("parquet into a FIFO: status %d, stderr %q", code, stderr)
	}
	b := read()
	rows, err := parquet.Read[stream.CallRow](bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("parquet read from the FIFO (%d bytes): %v", len(b), err)
	}
	file, err := parquet.ReadFile[stream.CallRow](exportCalls(t, "parquet", sampleLog))
	if err != nil || len(rows) < 2000 {
		t.Fatalf("%d rows in a file: %v", len(file), err)
	}
	if d := cmp.Diff(file, rows); d != "" {
		t.Errorf("the rows through the FIFO differ from a file's (-file +fifo):\n%s", d)
	}
}

// TestHTMLWriteErrorOnce: a failed write of the page is one line; an output's error names the
// file quoted.
func TestHTMLWriteErrorOnce(t *testing.T) {
	for _, args := range [][]string{{"report", "--html"}, {"summarize", "-o"}, {"calls", "--format", "csv", "-o"},
		{"calls", "--format", "ndjson", "-o"}, {"calls", "--format", "parquet", "-o"}} {
		full := mknodFull(t)
		_, stderr, code := runCLI(t, "", append(args, full, sampleLog)...)
		if want := "nccllog: writing " + strconv.Quote(full) + ": no space left on device\n"; code != exitData || stderr != want {
			t.Errorf("%v to a full device: status %d, stderr %q, want %q", args, code, stderr, want)
		}
	}
}

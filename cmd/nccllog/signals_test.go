//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/shorttest"
)

// TestMain lets a test run the test binary as nccllog itself (NCCLLOG_RUN_MAIN=1), to send it
// signals. Such a run writes a byte to its file descriptor 3 once it watches them. Otherwise
// the tests run as package shorttest sets them up.
func TestMain(m *testing.M) {
	if os.Getenv("NCCLLOG_RUN_MAIN") == "1" {
		ready := os.NewFile(3, "ready")
		os.Exit(mainCode(func() { ready.Write([]byte{1}); ready.Close() }))
	}
	shorttest.Main(m)
}

// TestSignalsEndWaitingRun: nccllog waiting on an idle stdin pipe or on a FIFO that nobody
// opened for writing ends on SIGINT with status 130 and on SIGTERM with 143.
func TestSignalsEndWaitingRun(t *testing.T) {
	// Each case has its own FIFO, so that the cases can wait side by side.
	dir := t.TempDir()
	fifo := func(name string) string {
		path := filepath.Join(dir, name)
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		name string
		args []string
		sig  syscall.Signal
		want int
	}{
		{"pipe SIGINT", []string{"report"}, syscall.SIGINT, exitInt},
		{"pipe SIGTERM", []string{"report"}, syscall.SIGTERM, exitTerm},
		{"fifo SIGINT", []string{"stats", fifo("int")}, syscall.SIGINT, exitInt},
		{"fifo SIGTERM", []string{"split", fifo("term")}, syscall.SIGTERM, exitTerm},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case is a process of its own, mostly waiting
			if got := signalled(t, tc.args, tc.sig); got != tc.want {
				t.Errorf("exit status %d, want %d", got, tc.want)
			}
		})
	}
}

// signalled starts nccllog with args and an idle pipe on its stdin, sends it sig once it
// watches its signals and has had a moment to block on its input, and returns its exit
// status. Whether it blocked yet does not change the status: the moment only makes the
// waiting case the likely one.
func signalled(t *testing.T, args []string, sig syscall.Signal) int {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "NCCLLOG_RUN_MAIN=1")
	cmd.Stdin = pr
	readyR, readyW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer readyR.Close()
	cmd.ExtraFiles = []*os.File{readyW}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	readyW.Close()
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	// Signalled before it watches them, the run would die of the signal itself (status -1):
	// wait for its byte, however long a busy machine takes to start it.
	if n, _ := readyR.Read(make([]byte, 1)); n != 1 {
		t.Fatalf("the run ended before it watched its signals: %v", <-ended)
	}
	time.Sleep(100 * time.Millisecond) // let it block on its input
	cmd.Process.Signal(sig)
	select {
	case err := <-ended:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		return 0
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 10 s after %v", sig)
		return -1
	}
}

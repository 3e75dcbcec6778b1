//go:build unix

package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// An input that ends before those ahead of it keeps its Result until they are merged, so
// RunAll must not start new inputs while Results wait: here the first input blocks, the
// next ones end at once, and the input after the window must not be opened until the
// first is merged.
func TestRunAllBoundsWaitingResults(t *testing.T) {
	dir := t.TempDir()
	pr, pw := io.Pipe()
	inputs := []Input{{Name: "-", Stdin: pr}}
	const jobs = 2
	for i := range unmerged*jobs + 2 {
		f := filepath.Join(dir, fmt.Sprintf("small%d.log", i))
		if err := os.WriteFile(f, []byte("h:1:1 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x9 [nranks=2] stream 0x3\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, Input{Name: f})
	}
	fifo := filepath.Join(dir, "later.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, Input{Name: fifo})
	ended := make(chan error, 1)
	go func() {
		_, err := RunAll(context.Background(), inputs, Options{Jobs: jobs, Plan: testCfg{Needs: needAgg}.plan(), Parsers: sharedParsers()}, discard{})
		ended <- err
	}()
	// Were the window not kept, the small inputs would end and free their slots at once
	// and the FIFO would be opened for reading within a few milliseconds.
	deadline := time.Now().Add(500 * time.Millisecond)
	for time.Now().Before(deadline) {
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
			t.Fatal("an input past the window was opened while the first input's Result was not merged")
		} else if !errors.Is(err, syscall.ENXIO) {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	pw.Close() // the first input ends; the FIFO is opened now, and ends with its writer
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
}

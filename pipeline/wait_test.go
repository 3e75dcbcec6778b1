//go:build unix

package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRunEndsWhenCancelled: a run blocked on an input that sends nothing (an idle pipe on
// standard input, a FIFO nobody opened for writing) ends with context.Canceled once its
// context is cancelled, instead of waiting for the input for ever.
func TestRunEndsWhenCancelled(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	defer pr.Close()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]Input{"idle pipe": {Name: "-", Stdin: pr}, "fifo without writer": {Name: fifo}} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			ended := make(chan error, 1)
			go func() {
				_, err := RunAll(ctx, []Input{in}, Options{Jobs: 2, Plan: testCfg{Needs: needAgg}.plan(), Parsers: sharedParsers()}, discard{})
				ended <- err
			}()
			time.Sleep(50 * time.Millisecond) // let it block
			cancel()
			select {
			case err := <-ended:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("error %v, want context.Canceled", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the run was still waiting for its input 10 s after it was cancelled")
			}
		})
	}
}

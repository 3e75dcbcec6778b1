// Command nccllog reads NCCL debug logs (NCCL_DEBUG=INFO with COLL lines) from distributed
// training jobs and says what the collectives did: which ops, how many, how big, in which
// datatypes and steps, and how long the steps took.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitTerm is the exit status after SIGTERM, as a shell reports a process it ended (128+15);
// SIGINT gives exitInt (128+2).
const exitTerm = 143

func main() {
	os.Exit(mainCode(nil))
}

// mainCode is main without its exit: the status of the run over os.Args, which calls
// watching (if not nil) once it watches the signals that end it.
func mainCode(watching func()) int {
	// SIGTERM is also watched here, so that a run it cancelled exits 143 rather than 130.
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	code := runMain(os.Args[1:], env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, progress: defaultProgress(), term: ttys{},
		width: stdoutWidth(os.Getenv), watching: watching})
	if code == exitInt && len(term) > 0 {
		code = exitTerm
	}
	return code
}

// runMain runs nccllog with args: output that could not be written (a full disk) fails the
// run even where nothing else would notice it, as with --help.
func runMain(args []string, e env) int {
	w := &checkedWriter{w: e.stdout}
	e.stdout = w
	code := run(args, e)
	if code == exitOK && w.err != nil && !errors.Is(w.err, syscall.EPIPE) {
		fmt.Fprintf(e.stderr, "nccllog: writing output: %v\n", w.err)
		return exitData
	}
	return code
}

// checkedWriter remembers the first error of the writer it wraps.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

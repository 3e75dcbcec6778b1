package main

import (
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/nccllog/nccllog/stages"
)

// output is a buffered stdout that remembers its first error and whether the reader went
// away (a closed pipe ends the run quietly).
type output struct {
	w   *bufWriter
	err error
	// width is what a text table's rows are cut to (see newTextTable): stdout's terminal
	// width, 0 into a pipe or a file, or with --wide.
	width int
}

func newOutput(w io.Writer) *output { return &output{w: newBufWriter(w, 256<<10)} }

func (o *output) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	o.err = err
	return n, err
}

// printf prints text for a person: its string arguments (text from the logs) escaped so that
// none can reach the terminal as a control (see escaped); the format is the program's own.
// JSON and CSV are written with Write, exact.
func (o *output) printf(format string, a ...any) { fmt.Fprintf(o, format, escapedArgs(a)...) }

func (o *output) flush() error {
	if o.err == nil {
		o.err = o.w.Flush()
	}
	return o.err
}

func (o *output) broken() bool { return errors.Is(o.err, syscall.EPIPE) }

// streamer is the stages.Out of a subcommand: what it does with selected lines and calls as
// they come, and what it prints once they have all come.
type streamer interface {
	stages.Out
	finish() error
}

// writer returns what the command does with lines and calls as they are read.
func (c *command) writer(w *output, o *options) streamer {
	if s := exportOut(w, c, o); s != nil {
		return s
	}
	if c.streams == nil {
		return nothing{}
	}
	return c.streams(w, o)
}

type nothing struct{}

func (nothing) Lines([]byte) error      { return nil }
func (nothing) Call(*stages.Call) error { return nil }
func (nothing) finish() error           { return nil }

// lineWriter writes split's lines as they were read.
type lineWriter struct{ w *output }

func splitOut(w *output, _ *options) streamer { return lineWriter{w} }

func (l lineWriter) Lines(b []byte) error  { _, err := l.w.Write(b); return err }
func (lineWriter) Call(*stages.Call) error { return nil }
func (l lineWriter) finish() error         { return l.w.err }

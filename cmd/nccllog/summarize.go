package main

import (
	"errors"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/nccllog/nccllog/stages"
)

// writeSummary writes the run's Result as a partial result, zstd-compressed (every command
// reads compressed inputs, and the set-up lines and call sequences a partial holds compress
// tenfold): to --output, created only once it is whole (a failed run leaves no file), or to
// standard output.
func writeSummary(w *output, v *view) error {
	if v.opts.output == "" || v.opts.output == "-" {
		return encodeCompressed(w, v)
	}
	return writeOutput(v.opts.output, func(w io.Writer) error { return encodeCompressed(w, v) })
}

func encodeCompressed(w io.Writer, v *view) error {
	zw, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	if err != nil {
		return err
	}
	if err := stages.Encode(zw, v.res, v.plan); err != nil {
		zw.Close() // returns the same error again
		return err
	}
	return zw.Close()
}

// errBinaryTerminal refuses summarize's binary output on a terminal, as gzip and zstd do: it
// would garble the screen and be lost.
var errBinaryTerminal = errors.New("summarize writes binary data: give -o FILE or redirect standard output")

// refuseTerminal is errBinaryTerminal where a command writes a partial result to standard
// output and that is a terminal; it is checked before any input is read.
func refuseTerminal(c *command, o *options, e env) error {
	if !c.partial || (o.output != "" && o.output != "-") || e.term == nil || !e.term.stdoutIsTerminal() {
		return nil
	}
	return errBinaryTerminal
}

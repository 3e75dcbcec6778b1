package main

import (
	"bufio"
	"errors"
	"fmt"
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
	f, err := createAtomic(v.opts.output)
	if err != nil {
		return err
	}
	b := bufio.NewWriterSize(f, 1<<20)
	if err := errors.Join(encodeCompressed(b, v), b.Flush()); err != nil {
		f.discard()
		return fmt.Errorf("%s: %w", v.opts.output, err)
	}
	return f.keep()
}

func encodeCompressed(w io.Writer, v *view) error {
	zw, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	if err != nil {
		return err
	}
	return errors.Join(stages.Encode(zw, v.res, v.plan), zw.Close())
}

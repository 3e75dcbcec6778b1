package main

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/nccllog/nccllog/stages"
)

// writeSummary writes the run's Result as a partial result: to --output, created only once it
// is whole (a failed run leaves no file), or to standard output.
func writeSummary(w *output, v *view) error {
	if v.opts.output == "" || v.opts.output == "-" {
		return stages.Encode(w, v.res, v.plan)
	}
	f, err := createAtomic(v.opts.output)
	if err != nil {
		return err
	}
	b := bufio.NewWriterSize(f, 1<<20)
	if err := errors.Join(stages.Encode(b, v.res, v.plan), b.Flush()); err != nil {
		f.discard()
		return fmt.Errorf("%s: %w", v.opts.output, err)
	}
	return f.keep()
}

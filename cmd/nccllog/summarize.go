package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nccllog/nccllog/stages"
)

// writeSummary writes the run's Result as a partial result: to --output, replaced whole
// only once it is written (a failed run leaves no half file), or to standard output.
func writeSummary(w *output, v *view) error {
	if v.opts.output == "" || v.opts.output == "-" {
		return stages.Encode(w, v.res, v.plan)
	}
	tmp, err := os.CreateTemp(filepath.Dir(v.opts.output), ".nccllog-partial-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := stages.Encode(tmp, v.res, v.plan); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", v.opts.output, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", v.opts.output, err)
	}
	return os.Rename(tmp.Name(), v.opts.output)
}

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/internal/gen"
)

// distinctFiles is the --distinct kind that writes many small files rather than one log.
const distinctFiles = "files"

// checkDistinct says what is wrong with a --distinct request, as a usage error.
func checkDistinct(dest destination) error {
	switch {
	case dest.distinct != distinctFiles && !slices.Contains(gen.DistinctKinds, dest.distinct):
		return usageError{fmt.Errorf("unknown distinct kind %q (want one of %s, %s)", dest.distinct,
			strings.Join(gen.DistinctKinds, ", "), distinctFiles)}
	case dest.count < 1:
		return usageError{errors.New("--count must be at least 1")}
	case (dest.distinct == distinctFiles) != (dest.dir != ""):
		return usageError{errors.New("--distinct files needs --per-rank-dir, and only it does")}
	}
	return nil
}

// generateDistinct writes the distinct-things input dest asks for.
func generateDistinct(dest destination, stdout io.Writer) error {
	if dest.distinct == distinctFiles {
		paths, err := gen.WriteSmallFiles(dest.dir, int(dest.count))
		if err == nil {
			_, err = fmt.Fprintln(stdout, len(paths), "files in", dest.dir)
		}
		return err
	}
	if dest.output == "-" || dest.output == "" {
		return gen.WriteDistinct(stdout, dest.distinct, dest.count)
	}
	f, err := os.Create(dest.output)
	if err != nil {
		return err
	}
	werr := gen.WriteDistinct(f, dest.distinct, dest.count)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

package pipeline

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Expand turns command-line arguments into inputs: "-" is standard input, a directory stands
// for every regular file below it (hidden ones left out), and a pattern with * ? or [ that
// names no file is expanded as a glob. Inputs keep the order of the arguments; a directory's
// and a glob's files are sorted by path.
func Expand(args []string, stdin io.Reader) ([]Input, error) {
	var out []Input
	for _, a := range args {
		if a == "-" {
			out = append(out, Input{Name: "-", Stdin: stdin})
			continue
		}
		names, err := expandOne(a)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			out = append(out, Input{Name: n})
		}
	}
	return out, nil
}

func expandOne(a string) ([]string, error) {
	st, err := os.Stat(a)
	switch {
	case err == nil && st.IsDir():
		return walk(a)
	case err == nil || !strings.ContainsAny(a, "*?["):
		return []string{a}, nil // a missing plain name fails when it is opened, naming it
	}
	m, err := filepath.Glob(a)
	if err != nil {
		return nil, fmt.Errorf("bad pattern %q: %v", a, err)
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("no file matches %q", a)
	}
	slices.Sort(m)
	return m, nil
}

func walk(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		hidden := path != dir && strings.HasPrefix(d.Name(), ".")
		switch {
		case hidden && d.IsDir():
			return filepath.SkipDir
		case !hidden && d.Type().IsRegular():
			out = append(out, path)
		}
		return nil
	})
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("%s: no files in this directory", dir)
	}
	slices.Sort(out)
	return out, err
}

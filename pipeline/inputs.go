package pipeline

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Expand turns command-line arguments into inputs: "-" is standard input (read once, however
// often it is named), a directory stands for every file below it (hidden ones left out,
// symbolic links followed), and a pattern with * ? or [ that names no file is expanded as a
// glob, its directories like directory arguments. Inputs keep the order of the arguments; a
// directory's and a glob's files are sorted by path. A FIFO, socket or device is read where
// an argument names it, and left out where a directory or a pattern only holds it. A dangling
// symbolic link in a directory or matched by a pattern is left out too, and told to warn (if
// not nil) as a *DanglingLink: the rest is read.
func Expand(args []string, stdin io.Reader, warn func(error)) ([]Input, error) {
	if warn == nil {
		warn = func(error) {}
	}
	var out []Input
	stdinSeen := false
	for _, a := range args {
		if a == "-" {
			if !stdinSeen {
				out = append(out, Input{Name: "-", Stdin: stdin})
			}
			stdinSeen = true
			continue
		}
		names, err := expandOne(a, warn)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			out = append(out, Input{Name: n})
		}
	}
	if len(out) > 1 {
		gate := newWindowGate()
		for i := range out {
			out[i].gate = gate
		}
	}
	return out, nil
}

func expandOne(a string, warn func(error)) ([]string, error) {
	st, err := os.Stat(a)
	switch {
	case err == nil && st.IsDir():
		return walk(a, warn)
	case err == nil || !strings.ContainsAny(a, "*?["):
		return []string{a}, nil // a missing plain name fails when it is opened, naming it
	}
	m, err := filepath.Glob(a)
	switch {
	case err != nil: // not a pattern, so a name: one with a [ that no ] closes
		return nil, fmt.Errorf("%q: no such file", a)
	case len(m) == 0:
		return nil, fmt.Errorf("%q: no such file, and no file matches it as a pattern", a)
	}
	slices.Sort(m)
	var out []string
	for _, name := range m {
		st, err := os.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			warn(&DanglingLink{Path: name})
		case err != nil:
			out = append(out, name) // it fails when it is opened, naming it
		case st.IsDir():
			files, err := walk(name, warn)
			if err != nil {
				return nil, err
			}
			out = append(out, files...)
		case st.Mode().IsRegular():
			out = append(out, name)
		} // a FIFO, socket or device that only a pattern matches is no log file (a FIFO would block)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q: matches only FIFOs, sockets, devices or dangling links, which a pattern leaves out", a)
	}
	return out, nil
}

// DanglingLink is a symbolic link whose target does not exist, met in a directory or matched
// by a pattern: it is left out and the run goes on.
type DanglingLink struct{ Path string }

func (d *DanglingLink) Error() string {
	return fmt.Sprintf("%q: a symbolic link to a missing file, skipped", d.Path)
}

// walk returns every file below dir, sorted, following symbolic links. A file or directory
// reached twice (through a link, or a link loop) is read once, under the first path found.
func walk(dir string, warn func(error)) ([]string, error) {
	w := walker{seen: make(map[string]bool), warn: warn}
	if err := w.dir(dir); err != nil {
		return nil, err
	}
	if len(w.out) == 0 {
		return nil, fmt.Errorf("%q: no files in this directory", dir)
	}
	slices.Sort(w.out)
	return w.out, nil
}

type walker struct {
	seen map[string]bool // real paths of the directories and files taken
	out  []string
	warn func(error) // told of each dangling link
}

// dir adds the files below path, a directory, unless it was read already.
func (w *walker) dir(path string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	if w.seen[real] {
		return nil
	}
	w.seen[real] = true
	entries, err := os.ReadDir(path)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if err := w.entry(filepath.Join(path, e.Name()), filepath.Join(real, e.Name()), e.Type()); err != nil {
			return err
		}
	}
	return nil
}

// entry adds path, of type typ, found in a directory whose real path makes its real path
// real (before links are followed).
func (w *walker) entry(path, real string, typ os.FileMode) error {
	switch {
	case typ.IsDir():
		return w.dir(path)
	case typ&os.ModeSymlink != 0:
		st, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			w.warn(&DanglingLink{Path: path})
			return nil
		}
		if err != nil {
			w.out = append(w.out, path) // it fails when it is opened, naming it
			return nil
		}
		if st.IsDir() {
			return w.dir(path)
		}
		if !st.Mode().IsRegular() {
			return nil
		}
		if real, err = filepath.EvalSymlinks(path); err != nil {
			return err
		}
	case !typ.IsRegular():
		return nil // a FIFO, socket or device inside a directory is no log file
	}
	if !w.seen[real] {
		w.seen[real] = true
		w.out = append(w.out, path)
	}
	return nil
}

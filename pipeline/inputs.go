package pipeline

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Expand turns command-line arguments into inputs: "-" is standard input (read once, however
// often it is named), a directory stands for every file below it (hidden ones left out,
// symbolic links followed), and a pattern with * ? or [ that names no file is expanded as a
// glob, its directories like directory arguments. Inputs keep the order of the arguments; a
// directory's and a glob's files are sorted by path.
func Expand(args []string, stdin io.Reader) ([]Input, error) {
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
		names, err := expandOne(a)
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
	var out []string
	for _, name := range m {
		if st, err := os.Stat(name); err == nil && st.IsDir() {
			files, err := walk(name)
			if err != nil {
				return nil, err
			}
			out = append(out, files...)
			continue
		}
		out = append(out, name)
	}
	return out, nil
}

// walk returns every file below dir, sorted, following symbolic links. A file or directory
// reached twice (through a link, or a link loop) is read once, under the first path found.
func walk(dir string) ([]string, error) {
	w := walker{seen: make(map[string]bool)}
	if err := w.dir(dir); err != nil {
		return nil, err
	}
	if len(w.out) == 0 {
		return nil, fmt.Errorf("%s: no files in this directory", dir)
	}
	slices.Sort(w.out)
	return w.out, nil
}

type walker struct {
	seen map[string]bool // real paths of the directories and files taken
	out  []string
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
		if err != nil {
			w.out = append(w.out, path) // a dangling link fails when it is opened, naming it
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

package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// outFile is where -o and --html write. A regular file, or nothing, at the path is replaced
// whole: the output goes to a temporary file beside it, renamed over it on keep, so that a
// reader never sees half a file and a failed run leaves the old one. A symbolic link is
// followed and its final target replaced so (the link stays a link). Anything else (a
// terminal, /dev/null, /dev/stdout on a pipe, a FIFO, a socket) is written into directly:
// it cannot be replaced, only fed, and a failed run leaves what was written.
type outFile struct {
	f    *os.File
	path string // as the user named it, for errors
	// dest is the file a temporary one replaces on keep, and mode the permissions it gets;
	// dest is "" when f is the destination itself.
	dest string
	mode fs.FileMode
}

// createOutput opens path for writing as outFile describes.
func createOutput(path string) (*outFile, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return nil, &fileError{"creating", path, errors.New("is a directory")}
	case err == nil && !fi.Mode().IsRegular():
		return openDirect(path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fileErr("creating", path, err)
	}
	dest, err := finalTarget(path)
	if err != nil {
		return nil, fileErr("creating", path, err)
	}
	mode := fs.FileMode(0o666) // less the umask, which creating the temporary file applies
	if fi != nil {
		if same, serr := os.Stat(dest); serr != nil || !os.SameFile(fi, same) {
			// A link whose text is no path to the file (/proc/self/fd/N of a deleted file).
			return openDirect(path)
		}
		mode = fi.Mode().Perm()
	}
	f, err := createTemp(dest)
	if err != nil {
		return nil, fileErr("creating", path, err)
	}
	return &outFile{f: f, path: path, dest: dest, mode: mode}, nil
}

// openDirect opens what is not a regular file (or cannot be replaced by one) to write into it;
// truncating is what a shell's > does, and nothing for a device or a FIFO.
func openDirect(path string) (*outFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return nil, fileErr("opening", path, err)
	}
	return &outFile{f: f, path: path}, nil
}

// maxLinks is how many symbolic links finalTarget follows, as Linux's limit (40) and more.
const maxLinks = 255

// finalTarget follows path's symbolic links to the name they end at, which may not exist yet
// (a dangling link is followed to where it points).
func finalTarget(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", errors.New("too many levels of symbolic links")
}

// createTemp creates a new file beside dest with mode 0666 less the umask, as a plain create
// would make it (os.CreateTemp makes 0600).
func createTemp(dest string) (*os.File, error) {
	dir, base := filepath.Split(dest)
	for range 1000 {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, errors.New("no free temporary name beside it")
}

// Write writes to the file; an error names the path the user gave, not a temporary one.
func (o *outFile) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	if err != nil {
		err = fileErr("writing", o.path, err)
	}
	return n, err
}

// keep closes the file and, when it is a temporary one, gives it the replaced file's mode
// (or a new file's) and renames it over its destination.
func (o *outFile) keep() error {
	if o.dest == "" {
		return fileErr("writing", o.path, o.f.Close())
	}
	err := errors.Join(o.f.Chmod(o.mode), o.f.Close())
	if err == nil {
		err = os.Rename(o.f.Name(), o.dest)
	}
	if err != nil {
		os.Remove(o.f.Name())
	}
	return fileErr("writing", o.path, err)
}

// discard closes the file and removes it when it is a temporary one.
func (o *outFile) discard() {
	o.f.Close()
	if o.dest != "" {
		os.Remove(o.f.Name())
	}
}

// fileError is an error of an output file: `verb "path": reason`, the path quoted so that no
// byte of it can break the error's one line.
type fileError struct {
	verb, path string
	err        error
}

func (e *fileError) Error() string { return fmt.Sprintf("%s %q: %v", e.verb, e.path, e.err) }
func (e *fileError) Unwrap() error { return e.err }

// fileErr is err as a fileError, without the name the operating system's error carries (a
// temporary file's, or the path unquoted). It is nil when err is.
func fileErr(verb, path string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &fileError{verb, path, err}
}

// writeOutput writes path, as createOutput opens it, with what fill writes: whole on success,
// and on failure not at all where it is replaced.
func writeOutput(path string, fill func(io.Writer) error) error {
	f, err := createOutput(path)
	if err != nil {
		return err
	}
	if err := writeBuffered(f, fill); err != nil {
		f.discard()
		return err
	}
	return f.keep()
}

// writeBuffered runs fill through a buffer onto w and returns the first error only: the
// buffer remembers a failed write and its flush would return it a second time.
func writeBuffered(w io.Writer, fill func(io.Writer) error) error {
	b := newBufWriter(w, 1<<20)
	if err := fill(b); err != nil {
		return err
	}
	return b.Flush()
}

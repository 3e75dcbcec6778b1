package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// committer is a streamer whose output goes to a file that must appear whole or not at all:
// once the run is over, commit writes it when ok and leaves nothing behind otherwise.
type committer interface {
	commit(r *view, ok bool) error
}

// settle commits a file output after the run: created when the run succeeded, removed when it
// failed or was interrupted. Its error, if any, becomes the run's.
func settle(out streamer, r *view, runErr error) error {
	c, isFile := out.(committer)
	if !isFile {
		return runErr
	}
	err := c.commit(r, runErr == nil)
	if err == nil || errors.Is(runErr, err) {
		// The run already stopped on the file's error (it is returned by the first write).
		return runErr
	}
	return errors.Join(runErr, err)
}

// exportOut is the streamer of a command writing to a file, or nil when it writes to stdout
// as before. An error opening the file is returned by the streamer's first use and commit.
func exportOut(w *output, c *command, o *options) streamer {
	switch {
	case c.name == "report" && o.html != "":
		return &htmlOut{path: o.html}
	case c.name == "calls" && (o.output != "" || o.format == "ndjson"):
		return newCallsExport(w, o)
	}
	return nil
}

// atomicFile is a temporary file beside path that becomes path on keep, so that a reader of
// path never sees half a file and a failed run leaves none.
type atomicFile struct {
	*os.File
	path string
}

func createAtomic(path string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("creating %s: %w", path, err)
	}
	return &atomicFile{File: f, path: path}, nil
}

// keep closes the file and renames it to its path, readable by all as a file made by a
// plain create would be (CreateTemp makes it 0600).
func (f *atomicFile) keep() error {
	err := errors.Join(f.Chmod(0o644), f.Close())
	if err == nil {
		err = os.Rename(f.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// discard closes and removes the file.
func (f *atomicFile) discard() error {
	f.Close()
	return os.Remove(f.Name())
}

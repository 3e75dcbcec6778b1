package main

import "errors"

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
	case c.name == "calls" && (o.output != "" || o.format == "ndjson" || o.format == "trace"):
		return newCallsExport(w, o)
	}
	return nil
}

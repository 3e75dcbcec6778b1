package main

import (
	"bufio"
	"encoding/json"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/stream"
)

// callSink writes calls in one format; close writes what ends the format.
type callSink interface {
	add(file string, c *stages.Call) error
	close() error
}

// callsExport is calls' streamer for -o and the ndjson and parquet formats: it learns each
// input's name from the run and hands every call to its sink.
type callsExport struct {
	file   *outFile // nil: standard output
	sink   callSink
	err    error // opening the file
	closed bool
}

func newCallsExport(w *output, o *options) *callsExport {
	e := &callsExport{}
	dest := w
	if o.output != "" {
		e.file, e.err = createOutput(o.output)
		if e.err != nil {
			return e
		}
		dest = newOutput(e.file)
	}
	switch o.format {
	case "parquet":
		e.sink = newParquetSink(bufio.NewWriterSize(e.file, 1<<20))
	case "ndjson":
		e.sink = &ndjsonSink{w: dest}
	case "trace":
		e.sink = newTraceSink(dest, o.output)
	default:
		e.sink = &tableSink{cw: newCallWriter(dest, o.format), w: dest}
	}
	return e
}

func (e *callsExport) Lines([]byte) error { return e.err }

func (e *callsExport) Call(c *stages.Call) error {
	if e.err != nil {
		return e.err
	}
	return e.sink.add(c.File, c)
}

func (e *callsExport) finish() error {
	e.closed = true
	if e.err == nil {
		e.err = e.sink.close()
	}
	return e.err
}

// commit keeps the file when the run and the writing succeeded, and removes it otherwise.
func (e *callsExport) commit(_ *view, ok bool) error {
	if e.file == nil {
		return e.err
	}
	if e.err != nil || !ok {
		if !e.closed && e.sink != nil {
			e.sink.close() // stops the parquet encoder; the file goes anyway
		}
		e.file.discard()
		return e.err
	}
	return e.file.keep()
}

// ndjsonSink writes one JSON object per line.
type ndjsonSink struct{ w *output }

func (s *ndjsonSink) add(file string, c *stages.Call) error {
	b, err := json.Marshal(stream.RowOf(file, c))
	if err != nil {
		return err
	}
	s.w.Write(append(b, '\n'))
	return s.w.err
}

func (s *ndjsonSink) close() error { return s.w.flush() }

// tableSink writes the formats calls prints to standard output (table, json, csv) to a file.
type tableSink struct {
	cw *callWriter
	w  *output
}

func (s *tableSink) add(file string, c *stages.Call) error {
	return s.cw.Call(c)
}

// close ends the format and flushes; an error of both (the file's) is returned once.
func (s *tableSink) close() error {
	if err := s.cw.finish(); err != nil {
		return err
	}
	return s.w.flush()
}

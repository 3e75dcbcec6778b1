package main

import (
	"bufio"
	"encoding/json"

	"github.com/nccllog/nccllog/stages"
)

// callRow is one call as the ndjson and parquet exports write it.
type callRow struct {
	File    string `json:"file" parquet:"file,dict"`
	Line    int64  `json:"line" parquet:"line"`
	Host    string `json:"host" parquet:"host,dict"`
	Pid     *int64 `json:"pid" parquet:"pid,optional"` // null: no known process (no envelope)
	Rank    *int64 `json:"launcher_rank" parquet:"launcher_rank,optional"`
	Comm    string `json:"comm" parquet:"comm,dict"`
	Step    *int64 `json:"step" parquet:"step,optional"`
	Op      string `json:"op" parquet:"op,dict"`
	OpCount uint64 `json:"opcount" parquet:"opcount"`
	Count   int64  `json:"count" parquet:"count"`
	Dtype   string `json:"dtype" parquet:"dtype,dict"`
	Bytes   int64  `json:"bytes" parquet:"bytes"`
	RedOp   int64  `json:"redop" parquet:"redop"`
	Root    int64  `json:"root" parquet:"root"` // the root, or the peer of Send/Recv
	NRanks  int64  `json:"nranks" parquet:"nranks"`
	Stream  string `json:"stream" parquet:"stream,dict"`
	Counted bool   `json:"counted" parquet:"counted"`
}

func toCallRow(file string, c *stages.Call) callRow {
	v := toCallJSON(c)
	return callRow{File: file, Line: v.Line, Host: v.Host, Pid: v.Pid, Rank: v.Rank, Comm: v.Comm, Step: v.Step,
		Op: v.Op, OpCount: v.OpCount, Count: v.Count, Dtype: v.Dtype, Bytes: v.Bytes, RedOp: v.RedOp,
		Root: v.Root, NRanks: v.NRanks, Stream: v.Stream, Counted: v.Counted}
}

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
	b, err := json.Marshal(toCallRow(file, c))
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

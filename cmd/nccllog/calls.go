package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/stream"
)

// callWriter prints calls as they come: a fixed-width table, CSV, or one JSON array.
type callWriter struct {
	w      *output
	format string
	csv    *csv.Writer
	n      int
}

func newCallWriter(w *output, format string) *callWriter {
	return &callWriter{w: w, format: format}
}

// header starts the output; it waits for the first call (or the end of a clean run), so
// that a run that fails before any call prints nothing.
func (c *callWriter) header() {
	switch c.format {
	case "csv":
		c.csv = csv.NewWriter(c.w)
		c.csv.Write(callHeader)
	case "json":
		c.w.Write([]byte(`{"calls": [`))
	default:
		c.w.printf("%8s %6s  %-22s %-14s %9s %12s %-9s %10s %6s %s\n",
			"line", "step", "host:pid", "op", "opcount", "count", "dtype", "bytes", "nranks", "comm           time")
	}
}

var callHeader = []string{"line", "step", "host", "pid", "rank", "op", "opcount", "count", "dtype",
	"bytes", "redop", "root", "nranks", "comm", "stream", "counted", "file", "time", "time_no_year", "since_init_ms"}

func (c *callWriter) Lines([]byte) error { return nil }

func (c *callWriter) Call(call *stages.Call) error {
	if c.n == 0 {
		c.header()
	}
	c.n++
	switch c.format {
	case "csv":
		v := stream.RecordOf(call)
		return c.csv.Write([]string{itoa(v.Line), optInt(v.Step), v.Host, optInt(v.Pid), optInt(v.Rank),
			v.Op, strconv.FormatUint(v.OpCount, 10), itoa(v.Count), v.Dtype, itoa(v.Bytes),
			itoa(v.RedOp), itoa(v.Root), itoa(v.NRanks), v.Comm, v.Stream, strconv.FormatBool(v.Counted), call.File,
			optString(v.Time), optString(v.NoYear), optFloat(v.SinceInitMs)})
	case "json":
		b, err := json.Marshal(stream.RecordOf(call))
		if err != nil {
			return err
		}
		sep := ",\n  "
		if c.n == 1 {
			sep = "\n  "
		}
		c.w.Write(append([]byte(sep), b...))
		return c.w.err
	}
	v := stream.RecordOf(call)
	comm := orUnknown(v.Comm)
	if t := (stream.CallTime{Time: v.Time, NoYear: v.NoYear, SinceInitMs: v.SinceInitMs}).Text(); t != "" {
		comm = fmt.Sprintf("%-14s %s", comm, t)
	}
	c.w.printf("%8d %6s  %-22s %-14s %#9x %12d %-9s %10s %6d %s\n", v.Line, optInt(v.Step),
		process(v), v.Op, v.OpCount, v.Count, v.Dtype, size(v.Bytes), v.NRanks, comm)
	return c.w.err
}

func (c *callWriter) finish() error {
	if c.n == 0 {
		c.header()
	}
	switch c.format {
	case "csv":
		c.csv.Flush()
		return c.csv.Error()
	case "json":
		c.w.Write([]byte("\n]}\n"))
	}
	return c.w.err
}

func optInt(p *int64) string {
	if p == nil {
		return ""
	}
	return itoa(*p)
}

func optString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}

// process is the table's host:pid, or ? for a call that belongs to no known process.
func process(v stream.CallRecord) string {
	if v.Pid == nil {
		return "?"
	}
	return v.Host + ":" + itoa(*v.Pid)
}

// orUnknown is the table's pointer: ? where the log does not show it.
func orUnknown(p string) string {
	if p == "" {
		return "?"
	}
	return p
}

func callsOut(w *output, o *options) streamer { return newCallWriter(w, o.format) }

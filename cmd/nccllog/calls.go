package main

import (
	"encoding/csv"
	"encoding/json"
	"strconv"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
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
			"line", "step", "host:pid", "op", "opcount", "count", "dtype", "bytes", "nranks", "comm")
	}
}

var callHeader = []string{"line", "step", "host", "pid", "rank", "op", "opcount", "count", "dtype",
	"bytes", "redop", "root", "nranks", "comm", "stream", "counted", "file"}

type callJSON struct {
	Line    int64  `json:"line"`
	Step    *int64 `json:"step"`
	Host    string `json:"host"` // "" for a call pasted without its envelope: no known process
	Pid     *int64 `json:"pid"`  // null there
	Rank    *int64 `json:"launcher_rank"`
	Op      string `json:"op"`
	OpCount uint64 `json:"opcount"`
	Count   int64  `json:"count"`
	Dtype   string `json:"dtype"`
	Bytes   int64  `json:"bytes"`
	RedOp   int64  `json:"redop"`
	Root    int64  `json:"root"`
	NRanks  int64  `json:"nranks"`
	Comm    string `json:"comm"`   // "" where the log does not show the pointer (redacted)
	Stream  string `json:"stream"` // "" likewise, or where the line has no stream
	Counted bool   `json:"counted"`
}

func (c *callWriter) Lines([]byte) error { return nil }

func (c *callWriter) Call(call *stages.Call) error {
	if c.n == 0 {
		c.header()
	}
	c.n++
	switch c.format {
	case "csv":
		v := toCallJSON(call)
		return c.csv.Write([]string{itoa(v.Line), optInt(v.Step), v.Host, optInt(v.Pid), optInt(v.Rank),
			v.Op, strconv.FormatUint(v.OpCount, 10), itoa(v.Count), v.Dtype, itoa(v.Bytes),
			itoa(v.RedOp), itoa(v.Root), itoa(v.NRanks), v.Comm, v.Stream, strconv.FormatBool(v.Counted), call.File})
	case "json":
		b, err := json.Marshal(toCallJSON(call))
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
	v := toCallJSON(call)
	c.w.printf("%8d %6s  %-22s %-14s %#9x %12d %-9s %10s %6d %s\n", v.Line, optInt(v.Step),
		process(v), v.Op, v.OpCount, v.Count, v.Dtype, size(v.Bytes), v.NRanks, orUnknown(v.Comm))
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

func toCallJSON(c *stages.Call) callJSON {
	v := callJSON{Line: c.Line, Host: c.Env.Host, Op: string(c.Coll.Op), OpCount: c.Coll.OpCount,
		Count: c.Coll.Count, Dtype: c.Coll.Datatype.String(), Bytes: c.Bytes(), RedOp: int64(c.Coll.RedOp),
		Root: c.Coll.Root, NRanks: c.Coll.NRanks, Comm: pointer(c, parser.PtrComm), Stream: pointer(c, parser.PtrStream),
		Counted: !c.Dropped}
	if c.Env.HasEnvelope() {
		p := c.Env.Pid
		v.Pid = &p
	}
	if c.Step >= 0 {
		s := c.Step
		v.Step = &s
	}
	if c.Rank >= 0 {
		r := c.Rank
		v.Rank = &r
	}
	return v
}

func optInt(p *int64) string {
	if p == nil {
		return ""
	}
	return itoa(*p)
}

// process is the table's host:pid, or ? for a call that belongs to no known process.
func process(v callJSON) string {
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

// pointer spells c's communicator or stream pointer (f), "" where it is unread.
func pointer(c *stages.Call, f parser.PtrFields) string {
	if c.Coll.Unread&f != 0 {
		return ""
	}
	return ptr(pointerOf(c, f))
}

func pointerOf(c *stages.Call, f parser.PtrFields) uint64 {
	if f == parser.PtrStream {
		return c.Coll.Stream
	}
	return c.Coll.Comm
}

// comm and stream are pointer for the parquet export, with the spellings p keeps.
func (p *ptrNames) comm(c *stages.Call) string   { return p.pointer(c, parser.PtrComm) }
func (p *ptrNames) stream(c *stages.Call) string { return p.pointer(c, parser.PtrStream) }

func (p *ptrNames) pointer(c *stages.Call, f parser.PtrFields) string {
	if c.Coll.Unread&f != 0 {
		return ""
	}
	return p.of(pointerOf(c, f))
}

func ptr(v uint64) string {
	if v == 0 {
		return "(nil)"
	}
	return "0x" + strconv.FormatUint(v, 16)
}

func callsOut(w *output, o *options) streamer { return newCallWriter(w, o.format) }

package main

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/stream"
)

// errUntimed is the message for a call whose line carries no time.
const errUntimed = "the log's lines carry no time; --format trace needs NCCL_DEBUG_TIMESTAMP_LEVELS=ALL or a collector's timestamps"

// traceProc is a (host, pid) of the log, one process (track) of the trace.
type traceProc struct {
	host string
	pid  int64 // -1: a call without its envelope
}

// traceSink writes calls as a Chrome Trace Event file (which Perfetto reads too), as they
// come: one process per (host, pid) of the log, sorted by host, one thread per communicator
// of the process, each call an instant event at its time, named by its op (see event). A
// call's args are what its place and name do not say, its opCount and bytes: its communicator
// is its thread, its step the span around it on the steps thread. At some 105 bytes a call
// (an 8-hour log's times take 11 digits), a million calls take about 105 MB.
// A call's time is when NCCL enqueued it, not how long it ran. Times are microseconds since
// the first call's, which otherData.time_zero gives.
type traceSink struct {
	w      *output
	procs  map[traceProc]int // the trace's pid of each process, from 1
	comms  map[traceComm]int // the tid of each communicator's thread, from 2 (1: steps)
	nComm  []int             // by the trace's pid - 1: how many communicators it has
	hosts  map[string]int    // a host's place, from 0
	nHost  []int             // how many processes each host has
	zero   parser.Stamp      // the first call's time
	buf    []byte
	n      int
	closed bool
	gz     *gzip.Writer // nil: not compressed
	file   *output      // what gz writes to
	spans  []traceSpan  // by the trace's pid - 1: the step each process is in
}

// traceComm is a communicator (its pointer, "" where the line gives none) of the trace's
// process pid: one thread of the trace.
type traceComm struct {
	pid  int
	comm string
}

// traceSpan is the step a process's calls are in, from its first call to its latest: a slice
// on the process's "steps" thread once the process's calls move to another step or end.
type traceSpan struct {
	step        int64 // -1: none yet
	first, last int64 // nanoseconds
}

// newTraceSink writes to w; where the file's name ends in .gz, gzip-compressed (at its fastest
// level: a twelfth of the size, and both trace viewers open .json.gz as it is).
func newTraceSink(w *output, name string) *traceSink {
	s := &traceSink{w: w, procs: make(map[traceProc]int), comms: make(map[traceComm]int), hosts: make(map[string]int)}
	if strings.HasSuffix(name, ".gz") {
		s.file = w
		s.gz, _ = gzip.NewWriterLevel(w, gzip.BestSpeed) // a valid level: no error
		s.w = newOutput(s.gz)
	}
	return s
}

func (s *traceSink) add(file string, c *stages.Call) error {
	if err := s.check(file, c); err != nil {
		return err
	}
	s.buf = s.buf[:0]
	if s.n == 0 {
		s.zero = c.Time
		s.buf = s.header(s.buf, c.Time)
	}
	id := s.process(c)
	s.buf = s.step(s.buf, id, c)
	s.buf = s.event(s.buf, id, s.thread(id, c), c)
	s.n++
	s.w.Write(s.buf)
	return s.w.err
}

// check refuses a call whose time cannot go on the timeline.
func (s *traceSink) check(file string, c *stages.Call) error {
	switch {
	case c.Time.IsZero():
		return fmt.Errorf("%q line %d: %s", file, c.Line, errUntimed)
	case c.Time.Form == parser.StampTrace:
		return fmt.Errorf("%q line %d: the call's time is NCCL TRACE's time since init, not a wall-clock time; --format trace needs NCCL_DEBUG_TIMESTAMP_LEVELS=ALL or a collector's timestamps", file, c.Line)
	case s.n > 0 && (c.Time.HasYear() != s.zero.HasYear() || c.Time.Zoned != s.zero.Zoned):
		return fmt.Errorf("%q line %d: the call's time (%s) does not compare with the first call's (%s): one has a year or a zone the other lacks", file, c.Line, c.Time.Form, s.zero.Form)
	}
	return nil
}

func (s *traceSink) header(b []byte, t parser.Stamp) []byte {
	zero := stream.TimeOf(t)
	b = append(b, `{"displayTimeUnit":"ms","otherData":{"time_zero":`...)
	b = appendJSON(b, zero.Text())
	b = append(b, `,"note":"ts is microseconds since time_zero, the first call's time as the log printed it (without a zone: the host's local clock); each call is an instant event at the time NCCL enqueued it"},"traceEvents":[`...)
	return b
}

// process returns c's process's pid in the trace, writing its metadata the first time.
func (s *traceSink) process(c *stages.Call) int {
	k := traceProc{c.Env.Host, -1}
	if c.Env.HasEnvelope() {
		k.pid = c.Env.Pid
	}
	if id, ok := s.procs[k]; ok {
		return id
	}
	id := len(s.procs) + 1
	s.procs[k] = id
	h, ok := s.hosts[k.host]
	if !ok {
		h = len(s.nHost)
		s.hosts[k.host] = h
		s.nHost = append(s.nHost, 0)
	}
	s.nHost[h]++
	name := "?"
	if k.pid >= 0 {
		name = k.host + ":" + itoa(k.pid)
	}
	s.buf = s.meta(s.buf, id, 0, "process_name", `"name":`, name)
	s.buf = s.meta(s.buf, id, 0, "process_sort_index", `"sort_index":`, h<<16+s.nHost[h])
	s.spans = append(s.spans, traceSpan{step: -1})
	s.nComm = append(s.nComm, 0)
	return id
}

// thread returns the tid of c's communicator's thread in the trace's process id, naming the
// thread the first time: "comm 0x7f00" ("calls" where the line gives no communicator), with
// the launcher's rank where its prefix gives one.
func (s *traceSink) thread(id int, c *stages.Call) int {
	k := traceComm{id, stream.Pointer(c, parser.PtrComm)}
	if tid, ok := s.comms[k]; ok {
		return tid
	}
	s.nComm[id-1]++
	tid := s.nComm[id-1] + 1
	s.comms[k] = tid
	name := "calls"
	if k.comm != "" {
		name = "comm " + k.comm
	}
	if c.Rank >= 0 {
		name += ", launcher rank " + itoa(c.Rank)
	}
	s.buf = s.meta(s.buf, id, tid, "thread_name", `"name":`, name)
	return tid
}

// step follows c's step on its process's steps thread, appending the span of the step c
// leaves; calls without a step (no progress lines) make none.
func (s *traceSink) step(b []byte, id int, c *stages.Call) []byte {
	sp := &s.spans[id-1]
	switch {
	case c.Step < 0 || c.Step == sp.step:
		if c.Step >= 0 {
			sp.last = c.Time.Nanos
		}
		return b
	case sp.step >= 0:
		b = s.span(b, id, sp)
	default: // the process's first step: name its thread
		b = s.threadMeta(b, id)
	}
	*sp = traceSpan{step: c.Step, first: c.Time.Nanos, last: c.Time.Nanos}
	return b
}

// threadMeta names the steps thread (tid 1) of the trace's process id.
func (s *traceSink) threadMeta(b []byte, id int) []byte {
	b = s.sep(b)
	b = append(b, `{"ph":"M","pid":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	return append(b, `,"tid":1,"name":"thread_name","args":{"name":"steps"}}`...)
}

// span appends sp as a slice on the steps thread of the trace's process id: from the step's
// first call to its last (1 us at least).
func (s *traceSink) span(b []byte, id int, sp *traceSpan) []byte {
	b = s.sep(b)
	b = append(b, `{"ph":"X","name":"step `...)
	b = strconv.AppendInt(b, sp.step, 10)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `,"tid":1,"ts":`...)
	b = appendMicros(b, sp.first-s.zero.Nanos)
	b = append(b, `,"dur":`...)
	b = appendMicros(b, max(sp.last-sp.first, 1000))
	b = append(b, `,"args":{"step":`...)
	b = strconv.AppendInt(b, sp.step, 10)
	return append(b, "}}"...)
}

// meta appends a metadata event of the trace's process id and thread tid.
func (s *traceSink) meta(b []byte, id, tid int, name, key string, v any) []byte {
	b = s.sep(b)
	b = append(b, `{"ph":"M","pid":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"name":"`...)
	b = append(b, name...)
	b = append(b, `","args":{`...)
	b = append(b, key...)
	b = appendJSON(b, v)
	return append(b, "}}"...)
}

// sep appends what comes before an event: nothing before the first.
func (s *traceSink) sep(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '[' {
		return append(b, '\n')
	}
	return append(b, ",\n"...)
}

// event appends c as an instant event (ph "i", thread-scoped by default) of the trace's process
// id and thread tid: a call's line marks the moment NCCL enqueued it, not a span, and an
// instant needs no dur. Its args are opCount (decimal, as the JSON, NDJSON and Parquet exports
// write it) and bytes; a datatype NCCL does not define has no size, so such a call keeps its
// count and dtype instead.
func (s *traceSink) event(b []byte, id, tid int, c *stages.Call) []byte {
	b = s.sep(b)
	b = append(b, `{"ph":"i","name":"`...)
	b = append(b, c.Coll.Op...)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"ts":`...)
	b = appendMicros(b, c.Time.Nanos-s.zero.Nanos)
	b = append(b, `,"args":{"opCount":`...)
	b = strconv.AppendUint(b, c.Coll.OpCount, 10)
	if !c.Coll.Datatype.Known() {
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, c.Coll.Count, 10)
		b = append(b, `,"dtype":`...)
		b = appendJSON(b, c.Coll.Datatype.String())
		return append(b, "}}"...)
	}
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, c.Bytes(), 10)
	return append(b, "}}"...)
}

// appendMicros appends ns as microseconds, with the nanoseconds as 3 decimals where any.
func appendMicros(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	if f := ns % 1000; f != 0 {
		b = append(b, '.')
		b = appendPadded3(b, f)
	}
	return b
}

func appendPadded3(b []byte, v int64) []byte {
	return append(b, byte('0'+v/100), byte('0'+v/10%10), byte('0'+v%10))
}

// appendJSON appends v as JSON (a string or a number: it cannot fail).
func appendJSON(b []byte, v any) []byte {
	j, _ := json.Marshal(v)
	return append(b, j...)
}

// close ends the trace; a run without calls writes an empty one.
func (s *traceSink) close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.n == 0 {
		s.w.Write([]byte(`{"displayTimeUnit":"ms","traceEvents":[`))
	}
	s.buf = s.buf[:0]
	for i := range s.spans {
		if sp := &s.spans[i]; sp.step >= 0 {
			s.buf = s.span(s.buf, i+1, sp)
		}
	}
	s.w.Write(s.buf)
	s.w.Write([]byte("\n]}\n"))
	if err := s.w.flush(); err != nil || s.gz == nil {
		return err
	}
	if err := s.gz.Close(); err != nil {
		return err
	}
	return s.file.flush()
}

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
// is its thread, its step the slice above it on the steps process's thread of its input. At
// some 105 bytes a call (an 8-hour log's times take 11 digits), a million calls take about
// 105 MB. A call's time is when NCCL enqueued it, not how long it ran. Times are microseconds
// since the first call's, which otherData.time_zero gives.
type traceSink struct {
	w      *output
	procs  map[traceProc]int // the trace's pid of each process, from 1
	pids   int               // pids handed out, the steps process's included
	comms  map[traceComm]int // the tid of each communicator's thread, from 1
	nComm  map[int]int       // by the trace's pid: how many communicators it has
	hosts  map[string]int    // a host's place, from 0
	nHost  []int             // how many processes each host has
	zero   parser.Stamp      // the first call's time
	buf    []byte
	n      int
	closed bool
	gz     *gzip.Writer   // nil: not compressed
	file   *output        // what gz writes to
	steps  int            // the steps process's pid; 0 until a call has a step
	inputs map[string]int // the tid of each input's thread in the steps process, from 1
	spans  []traceSpan    // by that tid - 1: the step the input's calls are in
}

// traceComm is a communicator (its pointer, "" where the line gives none) of the trace's
// process pid: one thread of the trace.
type traceComm struct {
	pid  int
	comm string
}

// traceSpan is the step an input's calls are in, from its earliest call to its latest: a
// slice on the input's thread of the steps process once the input's calls move to another
// step or end. Slices of one thread never overlap, as both viewers need: where a host's clock
// or the log's order puts a step's earliest call before the end of the previous step's slice,
// its slice starts where that one ends.
type traceSpan struct {
	step        int64 // -1: none yet
	first, last int64 // nanoseconds
	end         int64 // where the thread's latest slice ends (nanoseconds)
	ended       bool  // the thread has a slice: end is set
}

// newTraceSink writes to w; where the file's name ends in .gz, gzip-compressed (at its fastest
// level: a twelfth of the size, and both trace viewers open .json.gz as it is).
func newTraceSink(w *output, name string) *traceSink {
	s := &traceSink{w: w, procs: make(map[traceProc]int), comms: make(map[traceComm]int),
		nComm: make(map[int]int), hosts: make(map[string]int), inputs: make(map[string]int)}
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
	s.buf = s.step(s.buf, file, c)
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
	s.pids++
	id := s.pids
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
	s.nComm[id]++
	tid := s.nComm[id]
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

// step follows the step of the calls of file on that input's thread of the steps process,
// appending the slice of the step they leave; calls without a step (no progress lines) make
// none. One thread an input rather than one a process: a step is the input's (its progress
// lines'), and its processes' calls of a step span it together.
func (s *traceSink) step(b []byte, file string, c *stages.Call) []byte {
	if c.Step < 0 {
		return b
	}
	tid, ok := s.inputs[file]
	if !ok {
		b, tid = s.stepThread(b, file)
	}
	sp := &s.spans[tid-1]
	t := c.Time.Nanos
	switch {
	case c.Step == sp.step:
		sp.first, sp.last = min(sp.first, t), max(sp.last, t)
		return b
	case sp.step >= 0:
		b = s.span(b, tid, sp)
	}
	sp.step, sp.first, sp.last = c.Step, t, t
	return b
}

// stepThread names file's thread of the steps process ("steps of job.log"), and the process
// ("steps", above every host's) the first time, and returns the thread's tid.
func (s *traceSink) stepThread(b []byte, file string) ([]byte, int) {
	if s.steps == 0 {
		s.pids++
		s.steps = s.pids
		b = s.meta(b, s.steps, 0, "process_name", `"name":`, "steps")
		b = s.meta(b, s.steps, 0, "process_sort_index", `"sort_index":`, 0)
	}
	tid := len(s.inputs) + 1
	s.inputs[file] = tid
	s.spans = append(s.spans, traceSpan{step: -1})
	return s.meta(b, s.steps, tid, "thread_name", `"name":`, "steps of "+file), tid
}

// span appends sp as a slice on thread tid of the steps process: from the step's earliest
// call (or the end of the thread's previous slice) to its latest, 1 us at least.
func (s *traceSink) span(b []byte, tid int, sp *traceSpan) []byte {
	from := sp.first
	if sp.ended {
		from = max(from, sp.end)
	}
	dur := max(sp.last-from, 1000)
	sp.end, sp.ended = from+dur, true
	b = s.sep(b)
	b = append(b, `{"ph":"X","name":"step `...)
	b = strconv.AppendInt(b, sp.step, 10)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, int64(s.steps), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"ts":`...)
	b = appendMicros(b, from-s.zero.Nanos)
	b = append(b, `,"dur":`...)
	b = appendMicros(b, dur)
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

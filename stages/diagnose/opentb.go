package diagnose

import (
	"fmt"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// A paste that ends inside a Python traceback, after `Traceback (most recent call last):`
// and its frames but before the exception's line, shows that the program raised and not
// what: no fault can be named, and the job is not healthy either.
//
//	hp-1:28608:28608 [0] NCCL INFO Using network Socket
//	Traceback (most recent call last):
//	File ".../runpy.py", line 197, in _run_module_as_main
//
// Where nothing else proves a fault, the status is unknown and says so. A traceback that an
// exception's line, a terminate or a signal follows anywhere after it is an ended one. The
// Part keeps the last head and whether last words came after it, not an item for each
// traceback: a job's log may print thousands (kept as items, they cost the job mix 3%).

// openTB is the last traceback's head a Part read, while no process's last words followed it.
type openTB struct {
	ok     bool
	closed bool // last words came after the Part's start, where it read no head: the head before it is closed too
	file   string
	line   int64 // the chunk's line until anchored
}

// see reads a failure line of event e at line n.
func (t *openTB) see(n int64, e parser.FailureEvent) {
	switch e {
	case parser.FailureTraceback:
		*t = openTB{ok: true, line: n}
	case parser.FailureException, parser.FailureTerminate, parser.FailureSignal, parser.FailureNCCLResult, parser.FailureLastError:
		*t = openTB{closed: true}
	}
}

// anchor gives the head its file and absolute line.
func (t *openTB) anchor(o stages.Origin) {
	if t.ok && t.file == "" {
		t.file, t.line = o.File, t.line+o.Base
	}
}

// merge takes o's, of the lines after t's.
func (t *openTB) merge(o openTB) {
	if o.ok || o.closed {
		*t = o
	}
}

// ref is the open head, nil where none is open.
func (t *openTB) ref() *Ref {
	if !t.ok {
		return nil
	}
	return &Ref{File: t.file, Line: t.line, Text: "Traceback (most recent call last):"}
}

// restoredTB is the state a partial result's open head gives.
func restoredTB(r *Ref) openTB {
	if r == nil {
		return openTB{}
	}
	return openTB{ok: true, file: r.File, line: r.Line}
}

// openTracebackReason says why a log with an open traceback is unknown.
func openTracebackReason(r *Ref) string {
	return fmt.Sprintf("a Python traceback begins at %s and the log ends before its exception: the program raised, and the lines that say what are not in it", r)
}

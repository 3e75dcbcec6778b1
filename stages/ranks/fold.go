package ranks

import (
	"math/bits"

	"github.com/nccllog/nccllog/parser"
)

// heldEvent is a held event as Ranks folds it: the event where its list holds it, with the
// file and host its indexes name. The fold reads the event in place: a RankEvent built for
// each (260 bytes written and copied) cost more than the rest of folding a call.
type heldEvent struct {
	*event
	l          *events
	file, host string
	at         parser.Stamp // the event's wall time (event.when), read once
	// recent finds the processes of l's events by its indexes (nil: none; see procOf).
	recent []procSlot
	shift  uint // 64 less the bits of recent's indexes
}

// procSlot is a process of the events folded lately, by their list's indexes of its file
// and host: r.procs hashes the two strings, which on a log of thousands of processes cost
// as much as the rest of folding an event.
type procSlot struct {
	file, host uint32
	pid        int64
	p          *proc
}

// minProcSlots and maxProcSlots bound how many processes heldEvent.recent holds (a power
// of two).
const (
	minProcSlots = 64
	maxProcSlots = 8192
)

// procOf is e's process; where it has none yet, a new one if create, else nil.
func (r *Ranks) procOf(e *heldEvent, create bool) *proc {
	if e.recent == nil {
		if !create {
			return r.procs[procKey{e.file, e.host, e.pid}]
		}
		return r.proc(procKey{e.file, e.host, e.pid})
	}
	h := (uint64(e.event.file)<<32 | uint64(e.event.host)) * 0x9E3779B97F4A7C15
	h ^= uint64(e.pid) * 0xC2B2AE3D27D4EB4F
	slot := &e.recent[(h*0x9E3779B97F4A7C15)>>e.shift]
	if slot.p != nil && slot.file == e.event.file && slot.host == e.event.host && slot.pid == e.pid {
		return slot.p
	}
	var p *proc
	if create {
		p = r.proc(procKey{e.file, e.host, e.pid})
	} else if p = r.procs[procKey{e.file, e.host, e.pid}]; p == nil {
		return nil // a later line may make it: not kept
	}
	*slot = procSlot{e.event.file, e.event.host, e.pid, p}
	return p
}

// time is the event's wall time as an At.
func (h *heldEvent) time() At { return At{Stamp: h.at} }

// commLine is a communicator line's details, in l.comm (the next call overwrites them).
func (h *heldEvent) commLine() *parser.CommEvent {
	h.l.commEvent(&h.l.comm, h.event, &h.l.rare[h.rare])
	return &h.l.comm
}

// warn is a WARN line's text and whether it names no fault.
func (h *heldEvent) warn() (string, bool) {
	r := &h.l.rare[h.rare]
	return h.l.strs[r.text], r.advice
}

// watchdog is a watchdog line's details, nil where there are none.
func (h *heldEvent) watchdog() *parser.Watchdog {
	if h.rare < 0 {
		return nil
	}
	if r := &h.l.rare[h.rare]; r.dog >= 0 {
		return h.l.dogs[r.dog]
	}
	return nil
}

// datatype is a call's datatype.
func (h *heldEvent) datatype() parser.Datatype { return h.l.datatype(h.event) }

// redOp is a call's reduction.
func (h *heldEvent) redOp() parser.RedOp { return h.l.redOp(h.event) }

// opName is a call's op, by its string.
func (h *heldEvent) opName() parser.Op { return parser.Op(h.l.strs[h.op]) }

// Add folds one event of the input file into the state. Events of a file come in order.
func (r *Ranks) Add(file string, e *RankEvent) {
	r.settle()
	// One list serves every call, emptied of the last call's event: a list of its own each
	// call (its tables and a buffer of 64 events) was 14 KB of allocation an event.
	l := r.added
	if l == nil {
		l = new(events)
		r.added = l
	}
	l.Items, l.Anchored = l.Items[:0], 0
	l.rare, l.wide, l.dogs = l.rare[:0], l.wide[:0], clearDogs(l.dogs)
	if l.addRankEvent(e) != nil {
		return // a line without its fields: nothing to fold
	}
	l.Items[0].setWhen(e.Time.Stamp)
	r.fold(&heldEvent{event: &l.Items[0], l: l, file: file, host: e.Host, at: e.Time.Stamp})
}

// foldNow folds l's events into the state, in order.
func (r *Ranks) foldNow(l *events) {
	// Twice the processes folded so far, in a power of two: a job of a few processes keeps
	// a small table, one of thousands a table they seldom share a slot of.
	if want := min(max(minProcSlots, 2<<bits.Len(uint(len(r.procs)))), maxProcSlots); len(r.recent) < want {
		r.recent = make([]procSlot, want)
	} else {
		clear(r.recent) // its indexes are of the list folded last
	}
	h := heldEvent{l: l, recent: r.recent, shift: uint(64 - bits.Len(uint(len(r.recent)-1)))}
	file, host := ^uint32(0), ^uint32(0) // the indexes h's strings are of (none yet)
	for i := range l.Items {
		e := &l.Items[i]
		h.event, h.at = e, e.when()
		if e.file != file {
			h.file, file = l.strs[e.file], e.file
		}
		if e.host != host {
			h.host, host = l.strs[e.host], e.host
		}
		r.fold(&h)
	}
}

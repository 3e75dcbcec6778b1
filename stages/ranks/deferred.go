package ranks

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// A log of communicator set-up without a single call (a job that hung or failed in init, or
// a log cut before its first step) needs no call sequence: diagnose asks Ranks only whether
// any rank called (Called), and the fold of its communicator lines (a process found by its
// file and host, a Member and a binding for each rank) was most of what the ranks family
// cost diagnose there. Where the run asks that first (RanksStage.AsksCalledFirst), Ranks
// holds such events unfolded, as their lists hold them, until the first call comes,
// maxDeferred of them (or maxDeferredText of their strings) are held, or its state is asked
// for; they are then folded in order, as they would have been as they came. The other
// commands ask for the state at their end: holding the events only added their copy to the
// fold.

// maxDeferred bounds the events held unfolded: about 50 MB of them at most (an event and a
// communicator line's side entry are under 200 bytes).
const maxDeferred = 1 << 18

// maxDeferredText bounds the bytes of the strings the held events name (hosts, files, and
// the WARN lines' excerpts, up to 120 characters each, which a log of distinct WARNs without
// a call would otherwise hold one for each of its maxDeferred events).
const maxDeferredText = 8 << 20

// deferBlock is how many events one list of the deferred holds: events are copied into
// blocks of a fixed size, never grown (a list grown to hold them all was copied over as it
// grew, its new pages faulted in each time).
const deferBlock = 1 << 13

// deferred are events held unfolded, in order, in lists of up to deferBlock events.
type deferred struct {
	lists []*events
	n     int
	text  int // the bytes of the lists' strings
}

// hold appends l's events, copied: l keeps its buffer of events (a chunk's, which its next
// use fills again), and where a new list is begun, trades its tables for the list's empty
// ones.
func (d *deferred) hold(l *events) {
	var last *events
	if k := len(d.lists); k > 0 {
		last = d.lists[k-1]
	}
	if last == nil || len(last.Items)+len(l.Items) > cap(last.Items) {
		last = new(events)
		n := max(deferBlock, len(l.Items))
		last.Items = stages.Reserve(last.Items, n)
		if len(l.rare) > 0 {
			// A log of set-up holds a side entry for every third event or more: reserved
			// once, the block's are not copied over as they grow (its fresh pages are
			// touched only as entries fill them).
			last.rare = stages.Reserve(last.rare, n)
		}
		d.lists = append(d.lists, last)
	}
	d.n += len(l.Items)
	had := len(last.strs)
	last.merge(l) // a new list takes l's strings; one that holds some adds those it lacks
	for _, s := range last.strs[had:] {
		d.text += len(s)
	}
}

// foldHeld folds l's events into the state, in order, or holds them while r defers.
func (r *Ranks) foldHeld(l *events) {
	if r.defers && !l.calls {
		if r.deferred == nil {
			r.deferred = new(deferred)
		}
		if d := r.deferred; d.n+len(l.Items) <= r.maxDeferred && d.text <= maxDeferredText {
			r.deferred.hold(l)
			return
		}
	}
	r.settle()
	r.foldNow(l)
}

// settle folds the events held unfolded, and from then on folds events as they come: a
// call, more than maxDeferred events, or a question about the state ends the deferring.
func (r *Ranks) settle() {
	r.defers = false
	if d := r.deferred; d != nil {
		r.deferred = nil // its buffers go with it
		for i, l := range d.lists {
			d.lists[i] = nil // folded: the collector may take it while the rest are
			r.foldNow(l)
		}
	}
}

// takeDeferred makes o's state r's where both defer, r holds nothing and o nothing but
// deferred events (a run's total and its one input): they stay unfolded. It reports whether
// it did.
func (r *Ranks) takeDeferred(o *Ranks) bool {
	if !r.defers || r.deferred != nil || !r.empty() || len(r.files) > 0 ||
		!o.defers || !o.empty() || len(o.files) > 0 {
		return false
	}
	r.deferred, o.deferred = o.deferred, nil
	return true
}

// mayOverflow reports whether folding the deferred events may meet the cap of communicators
// kept in detail: only an Init line makes a communicator, one of its commId and size (or,
// without a commId, one each at most), so where those are fewer than the room left, the
// events need not be folded to know that none is past the cap (OverflowNote, which every
// command asks at its end).
func (r *Ranks) mayOverflow() bool {
	if r.deferred == nil {
		return false
	}
	room := r.maxComms - len(r.groups)
	keys := make(map[GroupKey]struct{})
	var last GroupKey // the key added last: a job's ranks' Init lines mostly follow each other
	for _, l := range r.deferred.lists {
		for i := range l.Items {
			e := &l.Items[i]
			if e.kind != parser.KindComm || e.rare < 0 {
				continue
			}
			if ev := l.strs[l.rare[e.rare].event]; ev != "Init START" && ev != "Init COMPLETE" {
				continue
			}
			if e.opCount == 0 { // the commId (see putComm)
				room--
			} else if k := (GroupKey{CommID: e.opCount, NRanks: e.nranks}); k != last || len(keys) == 0 {
				keys[k], last = struct{}{}, k
			}
			if len(keys) > room {
				return true
			}
		}
	}
	return false
}

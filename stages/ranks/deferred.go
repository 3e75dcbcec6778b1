package ranks

import (
	"github.com/nccllog/nccllog/parser"
)

// A log of communicator set-up without a single call (a job that hung or failed in init, or
// a log cut before its first step) needs no call sequence: diagnose asks Ranks only whether
// any rank called (Called), and the fold of its communicator lines (a process found by its
// file and host, a Member and a binding for each rank) was most of what the ranks family
// cost diagnose there. Where the run asks that first (RanksStage.AsksCalledFirst), Ranks
// holds such events unfolded, packed (deferred_code.go), until the first call comes,
// maxDeferred of them (or maxDeferredText of their strings) are held, or its state is asked
// for; they are then folded in order, as they would have been as they came. The other
// commands ask for the state at their end: holding the events would only add their packing
// to the fold.

// maxDeferred bounds the events held unfolded: a few MB of them packed (deferred_code.go),
// and what folding them needs at once (a list of deferBlock of them) besides.
const maxDeferred = 1 << 18

// maxDeferredBlocks bounds the buffers of packed events: an event whose fields all differ
// from its shape's last, by more than 56 bits each (a crafted log's), takes 284 bytes, past
// what it took unpacked.
const maxDeferredBlocks = (48 << 20) / packBlock

// maxDeferredText bounds the bytes of the strings the held events name (hosts, files, and
// the WARN lines' excerpts, up to 120 characters each, which a log of distinct WARNs without
// a call would otherwise hold one for each of its maxDeferred events).
const maxDeferredText = 8 << 20

// deferBlock is how many held events are unpacked at a time to be folded.
const deferBlock = 1 << 13

// deferred are events held unfolded, in order, packed in buffers of packBlock bytes: events
// are written into buffers of a fixed size, never grown (one grown to hold them all was
// copied over as it grew, its new pages faulted in each time).
type deferred struct {
	blocks [][]byte
	n      int
	text   int // the bytes of tab's strings
	// tab holds the strings the packed events' indexes name, and the communicator lines'
	// wide fields and the watchdog lines' details their side entries' indexes name.
	tab  events
	pack packer
	x    []uint32 // a list's string indexes in tab (hold)
	init []bool   // whether a list's string is an Init line's event (hold)
	// keys are the communicators the held Init lines with a commId make, and zeros the Init
	// lines without one (mayOverflow); over: they were more than the communicators kept in
	// detail, and are no longer counted.
	keys  map[GroupKey]struct{}
	last  GroupKey // the key added last: a job's ranks' Init lines mostly follow each other
	zeros int
	over  bool
	// recent are keys added lately, in a ring that next writes: the Init lines of a
	// split's communicators interleave (a communicator a color), and a key in keys
	// already cost as much to add again as a new one.
	recent [recentKeys]GroupKey
	next   uint8
}

// recentKeys is how many keys deferred.recent holds.
const recentKeys = 16

// hold packs l's events after those held: l keeps its buffers (a chunk's, which its next use
// fills again). maxComms is the cap of communicators kept in detail (see initLines).
func (d *deferred) hold(l *events, maxComms int) {
	if len(l.Items) == 0 {
		return
	}
	x, init, had := d.x[:0], d.init[:0], len(d.tab.strs)
	for _, s := range l.strs {
		x, init = append(x, d.tab.intern(s)), append(init, s == "Init START" || s == "Init COMPLETE")
	}
	d.x = x
	for _, s := range d.tab.strs[had:] {
		d.text += len(s)
	}
	dogs, wide := int32(len(d.tab.dogs)), int32(len(d.tab.wide))
	d.tab.dogs, d.tab.wide = append(d.tab.dogs, l.dogs...), append(d.tab.wide, l.wide...)
	if d.init = init; !d.over {
		d.initLines(l, maxComms)
	}
	buf := d.room()
	at := len(buf)
	buf = buf[:cap(buf)]
	for i := 0; i < len(l.Items); {
		n := min(len(l.Items), i+(len(buf)-at)/maxPacked) // the events buf has room for
		if n == i {
			d.blocks[len(d.blocks)-1] = buf[:at]
			buf, at = make([]byte, packBlock), 0
			d.blocks = append(d.blocks, buf[:0])
			continue
		}
		at = d.pack.put(buf, at, l, i, n, x, dogs, wide)
		i = n
	}
	d.blocks[len(d.blocks)-1] = buf[:at]
	d.n += len(l.Items)
}

// room is the buffer events are packed into next, past its len: a block holds maxPacked
// bytes past the last event it takes, which reading that one's last field may reach.
func (d *deferred) room() []byte {
	if len(d.blocks) == 0 {
		d.blocks = append(d.blocks, make([]byte, 0, packBlock))
	}
	return d.blocks[len(d.blocks)-1]
}

// initLines counts the communicators l's Init lines make: one of a commId and size, or,
// without a commId, one at most. Past maxComms they are no longer counted (see
// mayOverflow, which needs to know no more). d.init tells l's strings that name an Init
// line's event.
func (d *deferred) initLines(l *events, maxComms int) {
	for i := range l.Items {
		e := &l.Items[i]
		if e.kind != parser.KindComm || e.rare < 0 || !d.init[l.rare[e.rare].event] {
			continue
		}
		if e.opCount == 0 { // the commId (see putComm)
			d.zeros++
		} else if k := (GroupKey{CommID: e.opCount, NRanks: e.nranks}); k != d.last || len(d.keys) == 0 {
			d.addKey(k)
		}
		if len(d.keys)+d.zeros > maxComms {
			d.over, d.keys = true, nil
			return
		}
	}
}

// addKey adds k, an Init line's key (its commId is not 0), to keys.
func (d *deferred) addKey(k GroupKey) {
	d.last = k
	for _, r := range d.recent {
		if r == k {
			return // in keys: a key in recent was added (the zero key is no Init line's)
		}
	}
	if d.keys == nil {
		d.keys = make(map[GroupKey]struct{})
	}
	d.keys[k] = struct{}{}
	d.recent[d.next%recentKeys], d.next = k, d.next+1
}

// unpack hands the held events to fold, in order, deferBlock of them at a time, in a list
// whose string table and side lists are d's.
func (d *deferred) unpack(fold func(*events)) {
	l := &events{strs: d.tab.strs, wide: d.tab.wide, dogs: d.tab.dogs}
	l.Items = make([]event, 0, min(d.n, deferBlock))
	var u unpacker
	for i, b := range d.blocks {
		d.blocks[i] = nil // unpacked: the collector may take it while the rest are
		for at, end := 0, len(b); at < end; {
			if len(l.Items) == cap(l.Items) {
				fold(l)
				l.Items, l.rare = l.Items[:0], l.rare[:0]
			}
			l.Items = append(l.Items, event{})
			e := &l.Items[len(l.Items)-1]
			var rare rareEvent
			var has bool
			if at, has = u.next(b[:cap(b)], at, e, &rare); has {
				e.rare = int32(len(l.rare))
				l.rare = append(l.rare, rare)
			}
		}
	}
	if len(l.Items) > 0 {
		fold(l)
	}
}

// foldHeld folds l's events into the state, in order, or holds them while r defers.
func (r *Ranks) foldHeld(l *events) {
	if r.defers && !l.calls {
		if r.deferred == nil {
			r.deferred = new(deferred)
		}
		if d := r.deferred; d.n+len(l.Items) <= r.maxDeferred && d.text <= maxDeferredText &&
			len(d.blocks) < maxDeferredBlocks {
			d.hold(l, r.maxComms)
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
		d.unpack(r.foldNow)
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
// command asks at its end). They are counted as the events are held (initLines): it found
// the same, but read every held event again.
func (r *Ranks) mayOverflow() bool {
	d := r.deferred
	return d != nil && (d.over || len(d.keys)+d.zeros > r.maxComms-len(r.groups))
}

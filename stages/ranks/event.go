package ranks

import (
	"fmt"
	"unsafe"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/ncclwarn"
)

// event is a RankEvent as the ranks stage holds it between parsing and the ordered fold:
// without pointers, so that the collector neither scans nor write-barriers the millions of
// them a log holds, and a third of RankEvent's size. Its strings (file, host, op) are
// indexes into its list's string table; the few communicator, WARN and watchdog lines keep
// their details in the list's side table.
type event struct {
	line, step, pid, dev, label int64
	opCount                     uint64
	count, root, nranks, global int64
	comm                        uint64
	// atNanos, atForm, atDigits and atZoned are its wall time's parser.Stamp (see wallTime;
	// zero: none), which kept whole would be padded to 16 bytes beside kind's byte.
	atNanos        int64
	file, host, op uint32
	// rare is an index into events.rare, -1 for a collective call whose datatype and
	// reduction fit in dt and red; one that does not keeps them in events.wide (see putCall).
	rare     int32
	dt, red  int32
	kind     parser.Kind
	atForm   parser.StampForm
	atDigits uint8
	atZoned  bool
}

// when is e's wall time (zero: none).
func (e *event) when() parser.Stamp {
	return parser.Stamp{Nanos: e.atNanos, Form: e.atForm, Digits: e.atDigits, Zoned: e.atZoned}
}

// setWhen makes s e's wall time.
func (e *event) setWhen(s parser.Stamp) {
	e.atNanos, e.atForm, e.atDigits, e.atZoned = s.Nanos, s.Form, s.Digits, s.Zoned
}

// putCall makes e, an event of l, the collective call c (its op and comm pointer aside).
// A datatype or reduction past int32 (a garbled or crafted line's) is kept in a rareEvent
// of its own, its wideComm holding the two (wideCall).
func (l *events) putCall(e *event, c *parser.Collective) {
	e.opCount, e.count, e.root, e.nranks, e.global = c.OpCount, c.Count, c.Root, c.NRanks, c.GlobalRank
	e.dt, e.red = int32(c.Datatype), int32(c.RedOp)
	if int64(e.dt) != int64(c.Datatype) || int64(e.red) != int64(c.RedOp) {
		l.wideCall(e, c)
	}
}

// wideCall keeps c's datatype and reduction aside for e (see putCall).
func (l *events) wideCall(e *event, c *parser.Collective) {
	l.wide = append(l.wide, wideComm{int64(c.Datatype), int64(c.RedOp)})
	e.rare = l.addRare(rareEvent{dog: -1, wide: int32(len(l.wide) - 1)})
}

// datatype is a call's datatype (see putCall).
func (l *events) datatype(e *event) parser.Datatype {
	if e.rare >= 0 {
		return parser.Datatype(l.wide[l.rare[e.rare].wide][0])
	}
	return parser.Datatype(e.dt)
}

// redOp is a call's reduction (see putCall).
func (l *events) redOp(e *event) parser.RedOp {
	if e.rare >= 0 {
		return parser.RedOp(l.wide[l.rare[e.rare].wide][1])
	}
	return parser.RedOp(e.red)
}

// rareEvent is what a communicator, WARN or watchdog line adds to its event, without
// pointers: a log of communicator set-up holds thousands of them a chunk, which the
// collector would otherwise scan. Its strings (the communicator line's event and API, the
// WARN's text) are indexes into its list's string table, a watchdog line's details an
// index into its list's dogs.
type rareEvent struct {
	comm       commFields
	event, api uint32
	text       uint32 // 0: none
	dog        int32  // index into events.dogs; -1: none
	wide       int32  // index into events.wide, where comm's fields are kept: -1 in comm
	advice     bool   // a WARN that names no fault (RankEvent.Advice)
}

// commFields is what a parser.CommEvent says past its strings and what its line's event
// holds (see putComm), in int32s: devices, split colors and keys, node layouts. A
// communicator line whose values do not all fit keeps them in a wideComm of its list's.
// A log of communicator set-up holds a communicator line for every third line, and these
// as int64s beside the event's fields made a chunk's held lists as large as its input.
type commFields [8]int32

// wideComm is commFields in int64s.
type wideComm [8]int64

// putComm makes e, an event of l, the communicator line c: its pointer, ranks, commId, bus
// id and parent are kept in e's fields of a call, which a communicator line has no use for;
// the rest in a rareEvent.
func (l *events) putComm(e *event, c *parser.CommEvent) {
	e.comm, e.global, e.nranks, e.opCount = c.Comm, c.Rank, c.NRanks, c.CommID
	e.count, e.root = int64(c.BusID), int64(c.Parent) // as their bits
	r := rareEvent{event: l.internName(c.Event), api: l.internName(c.API), dog: -1, wide: -1}
	w := wideComm{c.CudaDev, c.NvmlDev, c.Color, c.Key, c.Split, c.NNodes, c.LocalRks, c.LocalRk}
	for i, v := range w {
		if int64(int32(v)) != v {
			l.wide = append(l.wide, w)
			r.wide = int32(len(l.wide) - 1)
			break
		}
		r.comm[i] = int32(v)
	}
	e.rare = l.addRare(r)
}

// internName is intern for a communicator line's event and API, whose values are few: as
// internOp, by where the string's bytes are (the parser's event names are constants and its
// APIs interned, one string each), then internVia, whose comparisons of up to four strings
// paid for two fields of every communicator line.
func (l *events) internName(s string) uint32 { return l.internAt(&l.nameAt, &l.names, s) }

// internVia is intern for a field whose values are mostly few (a line's host, a call's op,
// a communicator line's event and API): c's strings are compared first, and a string not
// among them takes the place of the one found longest ago. The table's own search tries the
// strings added last, which for a stretch of a few hosts and ops are no longer the ones
// lines name, and then its map.
func (l *events) internVia(c *strCache, s string) uint32 {
	for k := range c.n {
		if i := c.idx[k]; l.strs[i] == s {
			return i
		}
	}
	i := l.intern(s)
	if int(c.n) < len(c.idx) {
		c.n++
	}
	c.idx[c.next] = i
	c.next = (c.next + 1) % uint8(len(c.idx))
	return i
}

// internHost is intern for a line's host: the slot of its name (by its length and its first
// and last eight bytes) holds its index, checked against the table (a slot of another name,
// or of a table emptied since, is passed over). A job of hundreds of hosts interleaves them,
// and internVia's four missed to the map on most lines; slots found by where the name's
// bytes are missed on two lines in five of a 4,096-rank init (each parser, and so each
// chunk's, has its own string of a host, and 512 hosts shared 1,024 slots).
func (l *events) internHost(s string) uint32 {
	if i := l.lastHost; int(i) < len(l.strs) && sameBytes(l.strs[i], s) {
		return i // a process's lines mostly follow each other
	}
	slot := &l.hostAt[nameSlot(s)]
	if i := *slot; int(i) < len(l.strs) && (sameBytes(l.strs[i], s) || l.strs[i] == s) {
		l.lastHost = i
		return i // mostly the very string (one parser's), told without a call
	}
	i := l.intern(s)
	*slot, l.lastHost = i, i
	return i
}

// internOp is intern for a call's op, as internHost is for a host: the parser hands out one
// string per op name, and a rank's calls alternate among a few ops, which internVia's
// comparisons of four strings paid for on every call.
func (l *events) internOp(s string) uint32 { return l.internAt(&l.opAt, &l.ops, s) }

// internAt is intern by where s's bytes are: slots remembers the index each address gave,
// and a string met anew goes through internVia with c.
func (l *events) internAt(slots *[opSlots]uint32, c *strCache, s string) uint32 {
	slot := &slots[opSlot(s)]
	if i := *slot; int(i) < len(l.strs) && sameBytes(l.strs[i], s) {
		return i
	}
	i := l.internVia(c, s)
	*slot = i
	return i
}

// opSlots is how many slots events.opAt has: more than the ops NCCL has.
const opSlots = 64

// hostSlots is how many slots events.hostAt has: several times the hosts of a 4,096-rank
// job, so that they seldom share one.
const hostSlots = 1 << hostBits

const hostBits = 12

// nameSlot is the slot of hostAt for s, by its length and its first and last eight bytes
// (the number of a host such as gpu-node-0042 is at its end).
func nameSlot(s string) uint {
	n := len(s)
	h := uint64(n)
	if n >= 8 {
		h ^= load64(s)*0x9E3779B97F4A7C15 ^ load64(s[n-8:])*0xC2B2AE3D27D4EB4F
	} else {
		for i := range n {
			h = (h + uint64(s[i])) * 0x9E3779B97F4A7C15
		}
	}
	return uint((h * 0x9E3779B97F4A7C15) >> (64 - hostBits))
}

// load64 is s's first eight bytes, little-endian.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// opSlot is the slot of opAt for s, by the address of its bytes.
func opSlot(s string) uint {
	return uint((uint64(uintptr(unsafe.Pointer(unsafe.StringData(s))))*0x9E3779B97F4A7C15)>>(64-10)) % opSlots
}

// sameBytes reports whether a and b are the same bytes in memory (and so equal).
func sameBytes(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// strCache holds the indexes of a few strings of a list's table (internVia).
type strCache struct {
	idx     [4]uint32
	n, next uint8
}

// commEvent fills c with the communicator line of e, whose rareEvent is r (see putComm).
func (l *events) commEvent(c *parser.CommEvent, e *event, r *rareEvent) {
	var w wideComm
	if r.wide >= 0 {
		w = l.wide[r.wide]
	} else {
		for i, v := range r.comm {
			w[i] = int64(v)
		}
	}
	*c = parser.CommEvent{Event: l.strs[r.event], API: l.strs[r.api], Comm: e.comm, Rank: e.global, NRanks: e.nranks,
		CudaDev: w[0], NvmlDev: w[1], BusID: uint64(e.count), CommID: e.opCount, Parent: uint64(e.root), Color: w[2],
		Key: w[3], Split: w[4], NNodes: w[5], LocalRks: w[6], LocalRk: w[7]}
}

// rareWarn is a WARN line's text as a rareEvent.
func (l *events) rareWarn(text string, advice bool) rareEvent {
	return rareEvent{text: l.intern(text), advice: advice, dog: -1, wide: -1}
}

// rareDog is a watchdog line's details as a rareEvent.
func (l *events) rareDog(w *parser.Watchdog) rareEvent {
	l.dogs = append(l.dogs, w)
	return rareEvent{dog: int32(len(l.dogs) - 1), wide: -1}
}

func (e *event) Settle(step int64) { e.step = step }

// Anchor makes the line number absolute; the file is set by events.anchor, which owns the
// string table.
func (e *event) Anchor(_ string, base int64) { e.line += base }

// events is a held list of events with the tables their indexes point into.
type events struct {
	stages.Held[event, *event]
	strs []string // file, host and op names, each once
	// index finds a string of strs past the few that intern tries first (a job of many hosts
	// interleaves them, and a search of the whole table took a tenth of ranks' time on a log
	// of communicator set-up); it holds strs[:indexed].
	index   map[string]uint32
	indexed int
	// names and ops are the strings of strs that those fields named last (internVia).
	names, ops strCache
	// hostAt holds hosts' indexes by their names' slots (internHost).
	hostAt   [hostSlots]uint32
	lastHost uint32          // the index internHost gave last
	opAt     [opSlots]uint32 // ops' indexes by where their bytes are (internOp)
	nameAt   [opSlots]uint32 // communicator lines' event and API names' indexes, so (internName)
	rare     []rareEvent
	wide     []wideComm         // communicator lines' fields past int32 (see commFields)
	dogs     []*parser.Watchdog // the watchdog lines' details (they are few)
	// comm is the communicator line rankEvent gives out last: Ranks.Add reads it and keeps
	// no pointer to it.
	comm parser.CommEvent
	// calls: the list holds a call, the one kind of event whose fold reads its step (see
	// RanksPart.NeedsStep).
	calls bool
}

// internRecent is how many of the latest strings intern compares before it asks index:
// consecutive lines mostly repeat a host and an op of the lines just before.
const internRecent = 4

// intern returns s's index in the string table.
func (l *events) intern(s string) uint32 {
	if len(l.strs) == 0 {
		l.strs = append(l.strs, "") // index 0, the file of an event not anchored yet
	}
	for i := len(l.strs) - 1; i >= max(0, len(l.strs)-internRecent); i-- {
		if l.strs[i] == s {
			return uint32(i)
		}
	}
	if l.index == nil {
		l.index = make(map[string]uint32)
	}
	for ; l.indexed < len(l.strs); l.indexed++ {
		l.index[l.strs[l.indexed]] = uint32(l.indexed)
	}
	if i, ok := l.index[s]; ok {
		return i
	}
	l.strs = append(l.strs, s)
	return uint32(len(l.strs) - 1)
}

// forget empties the string table.
func (l *events) forget() {
	l.strs = l.strs[:0]
	clear(l.index)
	l.indexed = 0
	l.names, l.ops = strCache{}, strCache{}
}

// add keeps line n (text, parsed as p); it reports false for a line Ranks takes nothing from.
// The event is written where the list keeps it: built aside, its 144 bytes were copied
// twice.
func (l *events) add(n int64, text []byte, p *parser.Line) bool {
	switch p.Kind {
	case parser.KindInfo, parser.KindFailure:
		return l.addClock(n, p)
	case parser.KindCollective, parser.KindComm, parser.KindWarn:
	case parser.KindWatchdog:
		if p.Watchdog == nil {
			return false // the parser fills it for every watchdog line; nothing to fold without it
		}
	default:
		return false
	}
	l.Items = append(stages.Room(l.Items, 1), event{})
	l.Open = true
	e := &l.Items[len(l.Items)-1]
	e.line, e.step, e.pid, e.dev, e.label, e.rare, e.kind = n, -1, p.Env.Pid, p.Env.Dev, p.Rank, -1, p.Kind
	e.host = l.internHost(p.Env.Host)
	e.setWhen(wallTime(p.Time))
	switch p.Kind {
	case parser.KindCollective:
		// putCall, written out: called, it cost a tenth of adding a call.
		c := &p.Coll
		e.opCount, e.count, e.root, e.nranks, e.global = c.OpCount, c.Count, c.Root, c.NRanks, c.GlobalRank
		e.dt, e.red = int32(c.Datatype), int32(c.RedOp)
		if int64(e.dt) != int64(c.Datatype) || int64(e.red) != int64(c.RedOp) {
			l.wideCall(e, c)
		}
		e.comm, e.op = c.Comm, l.internOp(string(c.Op))
		l.calls = true
	case parser.KindComm:
		l.putComm(e, &p.Comm)
	case parser.KindWarn:
		advice := !ncclwarn.Classify(parser.Message(text, p)).Fault()
		e.rare = l.addRare(l.rareWarn(stages.Excerpt(text), advice))
	case parser.KindWatchdog:
		w := *p.Watchdog
		e.rare = l.addRare(l.rareDog(&w))
	}
	return true
}

// addClock keeps an INFO or failure line for its time only: a process's (or, without an
// envelope, its file's) later lines tell a stall from a cut (see stall.go). A line without a
// wall time is not kept, and one of the process (and kind) of the line kept just before it
// takes that one's place: a run of a process's INFO lines is one event.
func (l *events) addClock(n int64, p *parser.Line) bool {
	at := wallTime(p.Time)
	if at.IsZero() {
		return false
	}
	if i := len(l.Items) - 1; i >= l.Anchored {
		if e := &l.Items[i]; e.kind == p.Kind && e.pid == p.Env.Pid && l.strs[e.host] == p.Env.Host {
			e.line = n
			e.setWhen(at)
			return true
		}
	}
	e := event{line: n, step: -1, pid: p.Env.Pid, dev: p.Env.Dev, label: p.Rank, rare: -1, kind: p.Kind,
		host: l.internHost(p.Env.Host)}
	e.setWhen(at)
	l.push(&e)
	return true
}

// push keeps e, as Held.Add does: here its append is inlined rather than called through
// the generic's dictionary with the event copied as its argument.
func (l *events) push(e *event) {
	l.Items = append(stages.Room(l.Items, 1), *e)
	l.Open = true
}

func (l *events) addRare(r rareEvent) int32 {
	l.rare = append(stages.Room(l.rare, 1), r)
	return int32(len(l.rare) - 1)
}

// anchor gives the events not yet anchored their file and absolute line numbers, in one
// loop of its own (Held.Anchor's calls each event's method through the generic's dictionary).
func (l *events) anchor(o stages.Origin) {
	f := l.intern(o.File)
	for i := l.Anchored; i < len(l.Items); i++ {
		e := &l.Items[i]
		e.line += o.Base
		e.file = f
	}
	l.Anchored = len(l.Items)
}

// settle gives every event its step, as Held.Settle (keeping them) does, in a loop of its own.
func (l *events) settle(step int64) {
	l.Open = false
	for i := range l.Items {
		l.Items[i].step = step
	}
}

// merge appends o's events. Where l holds none it takes o's buffers and tables rather than
// copy them; otherwise o's indexes are translated into l's tables.
func (l *events) merge(o *events) {
	if len(l.Items) == 0 {
		// Events hold no pointers: the chunk-sized buffer stays with the list that has it.
		l.Items, o.Items = stages.Take(l.Items, o.Items)
		l.Anchored, o.Anchored = o.Anchored, 0
		l.Open = l.Open || o.Open
		l.calls, o.calls = l.calls || o.calls, false
		l.strs, o.strs = o.strs, l.strs
		l.index, o.index = o.index, l.index
		l.indexed, o.indexed = o.indexed, l.indexed
		l.names, l.ops, o.names, o.ops = o.names, o.ops, l.names, l.ops
		o.forget()
		l.rare, o.rare = stages.Take(l.rare, o.rare) // as Items: a list with room keeps its buffer
		l.wide, o.wide = o.wide, l.wide[:0]
		l.dogs, o.dogs = o.dogs, clearDogs(l.dogs)
		return
	}
	from := len(l.Items)
	l.Held.Merge(&o.Held)
	l.calls = l.calls || o.calls
	xlat := make([]uint32, len(o.strs))
	for i, s := range o.strs {
		xlat[i] = l.intern(s)
	}
	off := int32(len(l.rare))
	l.rare = append(stages.Room(l.rare, len(o.rare)), o.rare...)
	for i := off; i < int32(len(l.rare)); i++ {
		r := &l.rare[i]
		r.event, r.api, r.text = xlat[r.event], xlat[r.api], xlat[r.text]
		if r.dog >= 0 {
			r.dog += int32(len(l.dogs))
		}
		if r.wide >= 0 {
			r.wide += int32(len(l.wide))
		}
	}
	l.dogs = append(l.dogs, o.dogs...)
	l.wide = append(l.wide, o.wide...)
	same := true // o's strings have l's indexes: its events' need no translating
	for i, x := range xlat {
		same = same && x == uint32(i)
	}
	for i := from; i < len(l.Items); i++ {
		e := &l.Items[i]
		if !same {
			e.file, e.host, e.op = xlat[e.file], xlat[e.host], xlat[e.op]
		}
		if e.rare >= 0 {
			e.rare += off
		}
	}
}

// reset empties l, keeping its buffers.
func (l *events) reset() {
	l.Held.Reset()
	l.calls = false
	l.rare, l.wide = l.rare[:0], l.wide[:0]
	l.dogs = clearDogs(l.dogs)
	l.forget()
}

// committed empties l once its events are folded.
func (l *events) committed() {
	l.Held.Committed()
	l.calls = false
	l.rare, l.wide = stages.Reuse(l.rare), l.wide[:0]
	l.dogs = clearDogs(l.dogs)
	l.forget()
}

// clearDogs empties d, dropping what it points to.
func clearDogs(d []*parser.Watchdog) []*parser.Watchdog {
	clear(d)
	return d[:0]
}

// rankEvent is event i as Ranks folds it, with its strings. A communicator line's Comm is
// l.comm, which the next call overwrites.
func (l *events) rankEvent(i int) RankEvent {
	e := &l.Items[i]
	re := RankEvent{File: l.strs[e.file], Line: e.line, Step: e.step, Kind: e.kind, Host: l.strs[e.host],
		Pid: e.pid, Dev: e.dev, Label: e.label, Time: At{Stamp: e.when()}}
	switch {
	case e.rare >= 0 && e.kind != parser.KindCollective:
		r := &l.rare[e.rare]
		re.Text, re.Advice = l.strs[r.text], r.advice
		if r.dog >= 0 {
			re.Watchdog = l.dogs[r.dog]
		}
		if e.kind == parser.KindComm {
			l.commEvent(&l.comm, e, r)
			re.Comm = &l.comm
		}
	default:
		re.Coll = parser.Collective{Op: parser.Op(l.strs[e.op]), OpCount: e.opCount, Count: e.count,
			Datatype: l.datatype(e), RedOp: l.redOp(e), Root: e.root, Comm: e.comm, NRanks: e.nranks,
			GlobalRank: e.global}
	}
	return re
}

// addRankEvent keeps e, whose file and line are absolute already (a partial result's).
func (l *events) addRankEvent(e *RankEvent) error {
	v := event{line: e.Line, step: e.Step, pid: e.Pid, dev: e.Dev, label: e.Label, rare: -1, kind: e.Kind,
		file: l.intern(e.File), host: l.intern(e.Host)}
	v.setWhen(wallTime(e.Time.Stamp))
	switch {
	case e.Kind == parser.KindCollective:
		c := &e.Coll
		l.putCall(&v, c)
		v.comm, v.op = c.Comm, l.intern(string(c.Op))
		l.calls = true
	case e.Kind == parser.KindComm && e.Comm != nil:
		l.putComm(&v, e.Comm)
	case e.Kind == parser.KindWarn:
		v.rare = l.addRare(l.rareWarn(e.Text, e.Advice))
	case e.Kind == parser.KindWatchdog && e.Watchdog != nil:
		v.rare = l.addRare(l.rareDog(e.Watchdog))
	case e.Kind == parser.KindInfo || e.Kind == parser.KindFailure:
	default:
		return fmt.Errorf("held line %s:%d: a %s line without its fields", e.File, e.Line, e.Kind)
	}
	l.Items = append(stages.Room(l.Items, 1), v)
	l.Anchored = len(l.Items)
	return nil
}

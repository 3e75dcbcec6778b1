package diagnose

import (
	"bytes"
	"slices"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// maxPerKey is how many items of one kind one process keeps: the first are the origin, and
// the rest of a flood of the same error tells nothing more.
const maxPerKey = 16

// maxItems and maxKeys bound what any input makes the Partial keep.
const (
	maxItems = 1 << 16
	maxKeys  = 1 << 16
)

// capKey is whose evidence of one kind an item is, for maxPerKey.
type capKey struct {
	Host string `json:"host"`
	Pid  int64  `json:"pid"`
	Rank int64  `json:"rank"`
	Ev   Ev     `json:"ev"`
	Tid  int64  `json:"tid,omitempty"`
	Site uint32 `json:"site,omitempty"`
}

// keyOf is it's key; frames count per thread, so that one thread's long chains leave room
// for the others', and WARNs per site (the source file and line that printed them), so that
// a flood of one notice (RCCL's 80 `Could not read node # N` on a VM) leaves room for the
// WARN that starts the error's chain.
func keyOf(it *Item) capKey {
	k := capKey{Host: it.Host, Pid: it.Pid, Rank: it.Rank, Ev: it.Ev}
	switch {
	case it.Ev == evFrame:
		k.Tid = it.Tid
	case it.Ev.isWarn():
		k.Site = it.Site
	case it.Ev == evLocalClosed:
		k.Tid = it.Local // each local rank's count its own: a proxy names each that closed
	}
	return k
}

// KeyCount is how many lines of one key the input held, kept or not.
type KeyCount struct {
	capKey
	N int64 `json:"n"`
}

// Part is the diagnose stage's Partial.
type Part struct {
	items    []Item
	anchored int
	counts   map[capKey]int64
	keys     []capKey
	comms    commIndex
	states   []*commState // comms' values in the order first seen, so a merge reads no map
	loose    []*Mark      // comm marks not anchored yet
	// pend are the lifecycle lines not folded into states yet, the first pendAnchored of
	// them anchored: a Partial lists them while it holds no state (a chunk's does, with its
	// lines), and folds them once it holds any or maxCommLines of them.
	pend         []commLine
	pendAnchored int
	// stateSlab and marks hold comms' states and their marks, a block at a time.
	stateSlab slab[commState]
	marks     slab[Mark]
	// ras are the RAS JSON fields in input order, the first rasAnchored named; rasLeft
	// counts those beyond maxRASFields.
	ras         []RASField
	rasAnchored int
	rasLeft     int64
	// seen counts the evidence lines, kept or not (beyond maxPerKey, maxItems, maxKeys);
	// commsLeft the communicator lines of communicators beyond maxComms.
	seen, commsLeft int64
	// wait is a `Last error:` whose message is on the next line; lead the first line, where
	// it is other text (lasterror.go).
	wait lastWait
	lead leadLine
	// wdWait is a watchdog timeout line's head whose WorkNCCL tuple wrapped onto the next
	// line (wdwrap.go).
	wdWait wdWait
	// run is the `[rankN]:` exception header's run of lines last seen, orph the unprefixed
	// exception lines that open the chunk (exchead.go).
	run  excRun
	orph excOrphans
	// addrs are the addresses processes printed as their own at init, in input order, the
	// first addrAnchored named; addrIdx finds them; addrsLeft counts those past maxAddrs.
	addrs        []Addr
	addrIdx      map[string]int
	addrAnchored int
	addrsLeft    int64
	// lone is the process the NCCL lines showed while they showed one; loneSeen is set once
	// they showed any (lone.go).
	lone     LoneProc
	loneSeen bool
	// labelHosts: an NCCL line opened with its own host as a launcher's label (reread.go).
	labelHosts bool
	// open is the last frame kept, until its thread's next line (swallowed.go).
	open openFrame
	// tb is the last Python traceback's head no exception has followed yet (opentb.go).
	tb openTB
	// ray is the Ray worker whose prefix the line being read opens with (ray.go).
	ray rayLine
	// label is the host a launcher's label names on the line being read (reread.go).
	label labelLine
	// again reads lines of other text again behind what a paste or launcher put before
	// them (reread.go); nil until one needs it.
	again *rereader
}

func newPart() *Part {
	return &Part{counts: map[capKey]int64{}, comms: commIndex{byWord: map[uint64]*commState{}}, addrIdx: map[string]int{}}
}

// Add keeps a line's evidence.
func (p *Part) Add(l *stages.Line) {
	dropped := false
	if t := l.Text; len(t) > 4 && (mayOpenTime(t) || t[len(t)-1] <= ' ') {
		in := l
		l = tidied(l) // ctime.go: other text behind a collector's time, or before blanks
		dropped = timeDropped(l, in)
	}
	if t := l.Text; len(t) > 2 && readsLead[l.P.Kind] && (dropped || mayOpenLabel[t[0]] && mayFollowLabel[t[1]] || t[0] == '[') {
		l = p.afterLead(l, dropped) // behind.go: behind a label, a quote's `>`, a time
	}
	if len(l.Text) > 0 && (l.Text[0] == '(' || l.Text[0] == esc) {
		l = p.prefixed(l)
	}
	switch l.P.Kind {
	case parser.KindFailure:
		if f := l.P.Fail; f != nil {
			p.tb.see(l.N, f.Event) // opentb.go
		}
		if f := l.P.Fail; f != nil && f.Event == parser.FailureRAS && f.RAS == parser.RASField {
			p.addRAS(l.N, f)
		} else if l.P.Fail != nil && excContinues(l.P) {
			p.addExcLine(l.N, l.P)
		} else if l.P.Fail != nil {
			from := len(p.items)
			p.addFailure(l.N, l.P)
			p.repeated(from, l.Text)
			p.excHeader(l, false)
		}
	case parser.KindWarn:
		l = unredacted(l) // redacted.go: a head whose pid a user redacted
		p.seeEnvelope(l.P)
		if p.open.ok {
			p.threadGoesOn(l.P, false)
		}
		p.keep(warnItem(l.N, l.Text, l.P))
	case parser.KindWatchdog:
		if it, ok := watchdogItem(l.N, l.P); ok {
			if it.Name != dumpReceived { // dumpsignal.go: its rank is another's
				it = labelled(it, l.Text) // wdlabel.go: `[rankN]:` is the global rank
			}
			p.keep(it)
			p.repeated(len(p.items)-1, l.Text)
		}
	case parser.KindComm:
		p.seeEnvelope(l.P)
		p.addComm(l.N, l.P)
	case parser.KindInfo:
		p.seeEnvelope(l.P)
		if (l.N <= labelLines || l.N%labelLines == 0) && !p.labelHosts && labelIsHost(l.Text, l.P.Env.Host) {
			p.labelHosts = true // reread.go; a label is on every line: a chunk's first ones and a few after tell
		}
		// One look at where the message opens tells which readers may take the line
		// (infoGate, addrs.go): most INFO lines are none's.
		may, msg := infoGate(l.Text)
		if may&mayFrame != 0 {
			if l.P.Rank < 0 {
				if n := leadLen(l.Text); n > 0 {
					l = p.behindLead(l, n) // a frame's rank, where a lead hides its prefix
				}
			}
			if p.addFrame(l.N, l.Text, l.P) {
				return
			}
		}
		if p.open.ok {
			p.threadGoesOn(l.P, true) // swallowed.go
		}
		if len(msg) > 0 && msg[0] == '[' && p.addLocalClosed(l.N, msg, l.P) {
			return // localgone.go
		}
		if len(msg) > 1 && (msg[0] == 'C' && msg[1] == 'a' || msg[0] == 's' && msg[1] == 'o') && p.addRetry(l.N, msg, l.P) {
			return // retry.go; tested inline: the init's many `Channel ...` lines fail on the 'a'
		}
		if may&maySetting == 0 || bytes.IndexByte(l.Text, '_') < 0 || !p.addSetting(l.N, l.Text, l.P) {
			// A setting's name has an underscore, which most INFO lines lack: the test is
			// made here, before a call, as this runs on every INFO line.
			if may&mayAddrs != 0 {
				p.addGatedAddrs(l.N, l.Text, msg, l.P)
			}
		}
	case parser.KindMalformed:
		p.addUnenveloped(l) // unenveloped.go
	case parser.KindOther:
		if len(l.Text) > 8 && otherLead[l.Text[0]] && p.otherAgain(l) {
			return // logger.go, desync.go
		}
		p.addOther(l)
		if cudaLead(l.Text, l.P.Rank >= 0) && mayBeCudaLine(l.Text) {
			p.addCudaLine(l) // cudaline.go
		}
		if l.P.Rank >= 0 {
			p.excHeader(l, true) // exchead.go: a header has a [rankN]: prefix
		}
		if mayBeRare(l.Text) {
			p.addRare(l)
		} else if mayEndTakenDown(l.Text) {
			p.addTakenDown(l) // takendown.go: glued behind other text
		} else if len(l.Text) >= minWrapperLine && gluedWordHead(l.Text) > 0 && bytes.Contains(l.Text, watchdogExcHead) {
			// stuck.go: the watchdog's exception glued behind a word (pytest's `FAILED`)
			p.addWatchdogException(l)
		}
	}
}

// prefixed reads a line that opens with a parenthesis or an escape: other text is read
// without a terminal's colours (csi.go), and a Ray worker's prefix names the worker whose
// items the line's are (ray.go; keep gives them the worker).
func (p *Part) prefixed(l *stages.Line) *stages.Line {
	if l.Text[0] == esc && l.P.Kind == parser.KindOther {
		l = withoutCSI(l)
	}
	if len(l.Text) > 0 && l.Text[0] == '(' {
		p.ray = rayWorkerOf(l.N, l.Text)
	}
	return l
}

// mayBeRare reports whether other text t may be an nccl-tests failure line (nccltests.go),
// the heartbeat monitor's (stuck.go), a Ray line (ray.go), libmlx5's (netcqe.go), libfabric's
// (fabric.go), DeepSpeed's launcher's (dslaunch.go) or a shell's on a killed child
// (shellkill.go), or any of those in a log viewer's row (tablelead.go): it ends with a
// quote, or opens with a bracket, a parenthesis, a blank, a bar, a
// dot, a slash, an E, an m, an l, a b or srun's `3: ` label. Every
// line of other text takes this test, inline; most fail it.
func mayBeRare(t []byte) bool {
	n := len(t)
	if n < len(testNCCLHead) {
		return false
	}
	f := t[0]
	return t[n-1] == '\'' || t[n-2] == '\'' || rareFirst[f] && (f > '9' || f < '0' || t[1] == ':' || t[2] == ':' || t[3] == ':')
}

// rareFirst are the bytes mayBeRare lets a line open with (a digit only before a colon).
var rareFirst = [256]bool{'[': true, '(': true, ' ': true, '|': true, '.': true, 'E': true, 'm': true, 'l': true, '/': true, 'b': true, '#': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}

// srunLabel is the length of `srun -l`'s `12: ` label that opens t, 0 where none.
func srunLabel(t []byte) int {
	i := 0
	for i < len(t) && i < 7 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i+1 >= len(t) || t[i] != ':' || t[i+1] != ' ' {
		return 0
	}
	return i + 2
}

// addRare keeps other text that mayBeRare let through where it is one of those lines. A
// Ray worker's line is read past its prefix, and a line of `srun -l` past its label.
func (p *Part) addRare(l *stages.Line) {
	t := l.Text
	if t[0] == '(' {
		if p.addRay(l) {
			return
		}
		t = afterRay(t)
	}
	t = t[srunLabel(t):]
	if mayOpenRow(t) {
		t = t[tableLead(t):] // tablelead.go: a log viewer's row
	}
	if len(t) == 0 {
		return // a prefix with nothing behind it (Ray prints one before an empty line)
	}
	if mayBeTestLine(t) {
		p.addTestLine(l) // nccltests.go
	}
	if errorHead(t) {
		p.addStuck(l) // stuck.go
	} else if mayEndTakenDown(t) && p.addTakenDown(l) {
		// takendown.go: glued behind other text
	} else if t[0] == '[' && len(t) >= minWrapperLine && (t[1] == 'P' || t[1] == 'R' || t[1] >= '0' && t[1] <= '9') {
		// The watchdog's exception after a head that is not PyTorch's: Ray's C++ log head
		// (`[2024-12-24 23:47:14,381 E 3946 4620] logging.cc:101: Unhandled exception: ...
		// what(): [PG ...] Process group watchdog thread terminated with exception: ...`), or
		// none but the process group's (`[PG ...`, `[Rank 0]`); not a `[rankN]:` label's.
		p.addWatchdogException(l)
	}
	if mayBeCQE(t) {
		p.addCQE(l, t)
	}
	if fabricLead(t) {
		p.addFabric(l, t) // fabric.go
	} else if t[0] == '[' && l.P.Rank >= 0 {
		// Behind the label the parser read (`[1,3]<stderr>:`, `[rank3]:`), which ends at its
		// first colon: a look there, where parser.Unprefixed on each of a job's labelled lines
		// cost diagnose 2.3% of the job mix.
		if i := bytes.IndexByte(t[:min(len(t), fabricLabel)], ':'); i > 0 && fabricLead(t[i+1:]) {
			p.addFabric(l, t[i+1:])
		}
	}
	if t[0] == '[' && t[1] >= '0' && t[1] <= '9' && mayBeDSExit(t) { // its head opens with a date
		p.addDSExit(l, t) // dslaunch.go
	}
	if mayBeShellKill(t) {
		p.addShellKill(l, t) // shellkill.go
	}
	if mayBeTestRank(t) {
		p.addTestRank(l, t) // testhead.go
	}
}

// keep adds it where its key has room. An item of a line under a Ray worker's prefix that
// shows no process of its own is that worker's.
func (p *Part) keep(it Item) {
	if p.ray.names(it.Line) && it.Host == "" && it.Pid < 0 {
		it.Host, it.Pid = p.ray.host, p.ray.pid
	} else if h, ok := p.label.names(it.Line); ok && it.Host == "" && it.Pid < 0 {
		it.Host, it.Labelled = h, true // reread.go: a launcher's label names the line's host
	}
	p.seen++
	it.RankLast = max(it.RankLast, it.Rank) // one rank where no range was read
	k := keyOf(&it)
	n, seen := p.counts[k]
	switch {
	case !seen && len(p.keys) >= maxKeys:
		return
	case !seen:
		p.keys = append(p.keys, k)
	}
	p.counts[k] = n + 1
	if n >= maxPerKey || len(p.items) >= maxItems {
		return
	}
	p.items = append(p.items, it)
}

func (p *Part) addComm(n int64, l *parser.Line) {
	if ev := lifeEventOf(l.Comm.Event); ev != lifeNone {
		p.pend = append(p.pend, commLineOf(ev, n, l))
	}
}

// fold folds the lines p lists into its states, in order. Those of communicators past
// maxComms are counted in commsLeft.
func (p *Part) fold() {
	if len(p.states) == 0 && len(p.pend) >= minCommsHint {
		// Each line names one communicator at most: the map is made for as many at once,
		// not grown from empty a doubling at a time through thousands (a log of set-up).
		p.comms.byWord = make(map[uint64]*commState, min(len(p.pend), maxComms))
	}
	for i := range p.pend {
		c := &p.pend[i]
		st := p.comms.get(&c.commKey)
		if st == nil {
			if len(p.states) >= maxComms {
				p.commsLeft++
				continue
			}
			st = p.stateSlab.new()
			*st = commState{commKey: c.commKey, Rank: -1, NRanks: -1, GPU: -1}
			p.comms.put(st)
			p.states = append(p.states, st)
		}
		st.lines++
		if m := commEvent(st, c, &p.marks); m != nil && !c.anchored {
			p.loose = append(p.loose, m)
		}
	}
	clear(p.pend) // their strings
	p.pend, p.pendAnchored = p.pend[:0], 0
}

// minCommsHint is the fewest lines fold makes its empty map of states for at once: below
// it, growing the map costs less than the room a hint may leave unused.
const minCommsHint = 256

func (p *Part) Settle(int64, bool) {}

// Anchor names the file of the evidence added since the last Anchor and makes its line
// numbers absolute. Items hold their own copies of text, so nothing points into o.Data.
func (p *Part) Anchor(o stages.Origin) {
	p.ray = rayLine{} // its line number is the chunk's
	p.label = labelLine{}
	for i := p.anchored; i < len(p.items); i++ {
		p.items[i].File, p.items[i].Line = o.File, p.items[i].Line+o.Base
	}
	p.anchored = len(p.items)
	for _, m := range p.loose {
		m.File, m.Line = o.File, m.Line+o.Base
	}
	p.loose = p.loose[:0]
	for i := p.pendAnchored; i < len(p.pend); i++ {
		if c := &p.pend[i]; !c.anchored {
			c.File, c.Line, c.anchored = o.File, c.Line+o.Base, true
		}
	}
	p.pendAnchored = len(p.pend)
	p.anchorRAS(o)
	p.anchorWait(o)
	p.anchorWrapped(o)
	p.anchorExc(o)
	p.anchorAddrs(o)
	p.tb.anchor(o)
}

// Merge appends o, the Partial of the lines that follow: each of o's items is kept where it
// would have been had one Partial read both stretches.
func (p *Part) Merge(o stages.Partial) {
	op := o.(*Part)
	p.mergeExc(op)
	p.mergeWait(op)
	p.mergeWrapped(op)
	whole := p.anchored == len(p.items)
	inO := map[capKey]int64{} // items of each key so far in o
	fresh := map[capKey]int{} // o's keys p has not seen: how many came before each
	for i := range op.items {
		it := &op.items[i]
		k := keyOf(it)
		j := inO[k]
		inO[k] = j + 1
		base, seen := p.counts[k]
		if !seen {
			if _, ok := fresh[k]; !ok {
				fresh[k] = len(fresh)
			}
		}
		if (!seen && len(p.keys)+fresh[k] >= maxKeys) || base+j >= maxPerKey || len(p.items) >= maxItems {
			continue
		}
		p.items = append(p.items, *it)
		if whole && i < op.anchored {
			p.anchored++
		}
	}
	p.mergeCounts(op)
	p.mergeComms(op)
	p.mergeRAS(op)
	p.mergeAddrs(op)
	p.mergeLone(op)
	p.labelHosts = p.labelHosts || op.labelHosts
	p.tb.merge(op.tb)
	p.seen += op.seen
	p.commsLeft += op.commsLeft
}

func (p *Part) mergeCounts(op *Part) {
	for _, k := range op.keys {
		if _, seen := p.counts[k]; !seen {
			if len(p.keys) >= maxKeys {
				continue
			}
			p.keys = append(p.keys, k)
		}
		p.counts[k] += op.counts[k]
	}
}

// mergeComms takes o's communicator states, then lists o's lines after p's, folding them
// once p holds states or too many lines.
func (p *Part) mergeComms(op *Part) {
	if len(op.states) > 0 {
		p.fold() // p's lines come before o's states' lines
		p.mergeStates(op)
	}
	if p.pendAnchored == len(p.pend) {
		p.pendAnchored += op.pendAnchored
	}
	p.pend = append(p.pend, op.pend...)
	if len(p.states) > 0 || len(p.pend) > maxCommLines {
		p.fold()
	}
}

func (p *Part) mergeStates(op *Part) {
	if len(p.states) == 0 {
		// Nothing to fold into: o's map and list are taken whole, and o keeps p's empty ones.
		p.comms, op.comms = op.comms, p.comms
		p.states, op.states = op.states, p.states
		p.loose = append(p.loose, op.loose...)
		return
	}
	for _, oc := range op.states {
		if c := p.comms.get(&oc.commKey); c != nil {
			c.merge(oc)
			continue
		}
		if len(p.states) >= maxComms {
			p.commsLeft += oc.lines
			continue
		}
		// o's state is taken, not copied: o's Reset only forgets it, and new lines make new
		// states.
		p.comms.put(oc)
		p.states = append(p.states, oc)
	}
	p.loose = append(p.loose, op.loose...)
}

func (p *Part) Reset() {
	clear(p.states) // the states went to the Partial this one merged into
	clear(p.counts)
	p.comms.reset()
	clear(p.addrIdx)
	clear(p.pend)
	*p = Part{items: p.items[:0], counts: p.counts, keys: p.keys[:0], comms: p.comms, states: p.states[:0], loose: p.loose[:0], ras: p.ras[:0],
		addrs: p.addrs[:0], addrIdx: p.addrIdx, stateSlab: p.stateSlab, marks: p.marks, pend: p.pend[:0], again: p.again}
}

// Evidence is the Partial as a plain value: its items in input order, every key's count, the
// communicators' states, and how many evidence lines there were (those beyond the items were left out). It is also its partial-result form.
type Evidence struct {
	Items     []Item       `json:"items"`
	Counts    []KeyCount   `json:"counts"`
	Comms     []*commState `json:"comms"`
	Seen      int64        `json:"seen"`
	CommsLeft int64        `json:"comms_left"`
	// RAS are the fields of RAS reports in JSON form, in input order; RASLeft how many
	// more there were.
	RAS     []RASField `json:"ras,omitempty"`
	RASLeft int64      `json:"ras_left,omitempty"`
	// Addrs are the addresses processes printed as their own at init (addrs.go), in input
	// order; AddrsLeft how many init lines' addresses were past the cap.
	Addrs     []Addr `json:"addrs,omitempty"`
	AddrsLeft int64  `json:"addrs_left,omitempty"`
	// Procs is the one process whose envelope the NCCL lines showed, or says they showed
	// several (Many); nil where they showed none (lone.go).
	Procs *LoneProc `json:"procs,omitempty"`
	// Traceback is the head of the last Python traceback, where no process's last words
	// (an exception's line, a terminate, a signal) came after it (opentb.go).
	Traceback *Ref `json:"traceback,omitempty"`
	// LabelHosts says an NCCL line opened with its own host as a launcher's label (pdsh's
	// `node1: node1:15874:17284 [4] NCCL INFO ...`): the labels name hosts as NCCL does.
	LabelHosts bool `json:"label_hosts,omitempty"`
}

func (p *Part) Snapshot() any { return p.Evidence() }

// Evidence returns what p holds.
func (p *Part) Evidence() Evidence {
	p.fold()
	e := Evidence{Items: p.items, Seen: p.seen, CommsLeft: p.commsLeft, RAS: p.ras, RASLeft: p.rasLeft,
		Addrs: sortedAddrs(p.addrs), AddrsLeft: p.addrsLeft, LabelHosts: p.labelHosts, Traceback: p.tb.ref()}
	if p.loneSeen {
		lone := p.lone
		e.Procs = &lone
	}
	if e.Items == nil {
		e.Items = []Item{}
	}
	e.Counts = make([]KeyCount, len(p.keys))
	for i, k := range p.keys {
		e.Counts[i] = KeyCount{k, p.counts[k]}
	}
	// The order communicators were first seen in depends on the order of the inputs.
	e.Comms = slices.Clone(p.states)
	slices.SortFunc(e.Comms, cmpComms)
	return e
}

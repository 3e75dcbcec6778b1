package ranks

import (
	"cmp"
	"hash/fnv"
	"iter"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// Ranks follows every process's communicators through its log: it binds each comm pointer to
// a communicator rank from the Init lines, groups the ranks of each communicator across
// processes, and aligns their calls by position (opCount is not an operation id). Its memory
// grows with ranks × communicators and with the length of one reference sequence per
// communicator, not with the calls of every rank.
type Ranks struct {
	cfg    *stages.Config
	sigs   *sigTable
	steps  *stepTable
	procs  map[procKey]*proc
	groups map[GroupKey]*Group
	pgs    map[pgRankKey]*PGRank // PyTorch process groups' ranks, from the watchdog lines
	// maxComms is how many communicators are kept in detail (MaxComms; tests set fewer);
	// over holds the others, and closed the communicators to fold first when the cap is met.
	maxComms int
	over     Overflow
	closed   []*Group
	// overBinding is every pointer's binding to a communicator counted in the overflow only:
	// such a pointer costs an entry in its process's over set, not a binding.
	overBinding *binding
	// files are the times of each input file's lines (stall.go).
	files    map[string]*FileClock
	lastFile *FileClock // the file of the last event (consecutive events mostly share one)
	recent   []procSlot // heldEvent.recent's memory, kept from one fold to the next
	// added is the list Add folds each event from, kept from one call to the next.
	added *events
	// noVolume: calls are not summed into their ranks' volumes (RanksStage.NoVolume).
	noVolume bool
	// deferred are the events held unfolded while no call has come, where defers is set
	// (RanksStage.AsksCalledFirst) until events are folded as they come (deferred.go).
	deferred    *deferred
	defers      bool
	maxDeferred int // maxDeferred; tests set fewer
}

type procKey struct {
	file string
	host string
	pid  int64
}

// proc is one process: the communicator each of its comm pointers is bound to now.
type proc struct {
	bind bindings
	// over holds the pointers bound to communicators counted in the overflow only.
	over map[uint64]struct{}
	// inferred is what it used without an Init line, nil until it used some; warn its last
	// WARN, nil until one. A log of communicator set-up holds tens of thousands of processes
	// that have neither: in place, these fields made a process 208 bytes rather than 160.
	inferred *procInferred
	warn     *procWarn
	clk      procClock // the times of its calls and lines (stall.go)
	// last is bind[lastPtr], nil where unknown: a process's consecutive calls are mostly on
	// one communicator, and the map's lookup cost as much as a tenth of folding a call.
	// Every change of bind sets it to nil.
	last    *binding
	lastPtr uint64
	members []*Member
	folded  int // members of folded communicators not yet dropped from members
}

// procInferred is what a process used without an Init line.
type procInferred struct {
	sizeSeq map[int64]int64 // communicators of each size used without an Init line
	// open is, per size, the communicator of that size this process last used without a
	// commId: a pointer of the same size on another device (or with another rank) joins it,
	// as where one process drives several GPUs (ncclCommInitAll, nccl-tests -g N).
	open map[int64]*openComm
}

// procWarn is a process's last WARN: its text, its line, and whether it names no fault.
type procWarn struct {
	text   string
	line   int64
	advice bool
}

// bindings are a process's comm pointers and what each is bound to. Most processes bind
// one or two (a job's world communicator and a split of it), which are kept in place; more
// go to a map. A map for every process cost some 180 bytes of it, more than the process
// itself, in a log of tens of thousands of processes setting up communicators.
type bindings struct {
	few  [2]ptrBinding // b nil: free
	more map[uint64]*binding
}

type ptrBinding struct {
	ptr uint64
	b   *binding
}

// get returns what ptr is bound to, or nil.
func (bs *bindings) get(ptr uint64) *binding {
	for i := range bs.few {
		if f := &bs.few[i]; f.b != nil && f.ptr == ptr {
			return f.b
		}
	}
	return bs.more[ptr]
}

// set binds ptr to b (not nil), in place of what it was bound to.
func (bs *bindings) set(ptr uint64, b *binding) {
	for i := range bs.few {
		if f := &bs.few[i]; f.b != nil && f.ptr == ptr {
			f.b = b
			return
		}
	}
	if _, ok := bs.more[ptr]; ok {
		bs.more[ptr] = b
		return
	}
	for i := range bs.few {
		if f := &bs.few[i]; f.b == nil {
			*f = ptrBinding{ptr, b}
			return
		}
	}
	if bs.more == nil {
		bs.more = make(map[uint64]*binding)
	}
	bs.more[ptr] = b
}

// del unbinds ptr.
func (bs *bindings) del(ptr uint64) {
	for i := range bs.few {
		if f := &bs.few[i]; f.b != nil && f.ptr == ptr {
			*f = ptrBinding{}
			return
		}
	}
	delete(bs.more, ptr)
}

// all returns every pointer and its binding, in no particular order (as a map's range).
func (bs *bindings) all() iter.Seq2[uint64, *binding] {
	return func(yield func(uint64, *binding) bool) {
		for _, f := range bs.few {
			if f.b != nil && !yield(f.ptr, f.b) {
				return
			}
		}
		for ptr, b := range bs.more {
			if !yield(ptr, b) {
				return
			}
		}
	}
}

// binding is what a comm pointer stands for: a rank of a communicator kept in detail, or
// (over) one counted in the overflow only.
type binding struct {
	m     *Member
	g     *Group
	ended bool
	over  bool
}

// NewRanks returns an empty Ranks.
func NewRanks(cfg *stages.Config) *Ranks {
	return &Ranks{cfg: cfg, sigs: newSigTable(), steps: newStepTable(), procs: make(map[procKey]*proc), groups: make(map[GroupKey]*Group),
		pgs: make(map[pgRankKey]*PGRank), maxComms: MaxComms, maxDeferred: maxDeferred,
		overBinding: &binding{over: true}}
}

// RankEvent is a line that matters to Ranks: a collective call, a communicator line, a WARN
// or a PyTorch watchdog line, with where it was.
type RankEvent struct {
	File string
	Line int64
	Step int64
	Kind parser.Kind
	Host string
	Pid  int64
	Dev  int64 // the envelope's [dev], -1 when absent
	// Label is the launcher's rank label (torchrun `[rank3]:`), -1 when the line has none.
	Label int64 `json:",omitempty"`
	Coll  parser.Collective
	Comm  *parser.CommEvent // communicator lines only (they are few)
	Text  string            // the WARN's message
	// Advice: the WARN names no fault, as ncclwarn reads its message (a notice or advice that
	// healthy jobs print too). False for a partial result written before it was kept.
	Advice bool `json:",omitempty"`
	// Watchdog is what a watchdog line says (watchdog lines only).
	Watchdog *parser.Watchdog `json:",omitempty"`
	// Time is the line's wall time (zero: none; a TRACE line's time since init is none).
	Time At `json:",omitzero"`
}

// fold folds one held event into the state.
func (r *Ranks) fold(e *heldEvent) {
	r.fileClock(e)
	if e.kind == parser.KindInfo || e.kind == parser.KindFailure {
		// Only their times count, as their process's later lines (a process known by its
		// calls or communicators: these lines make none).
		if p := r.procOf(e, false); p != nil {
			p.clk.line(e.at)
		}
		return
	}
	if e.kind == parser.KindWatchdog {
		if w := e.watchdog(); w != nil {
			r.watchdog(e.file, w, e.line, e.label) // no NCCL envelope: not a process's line
		}
		return
	}
	p := r.procOf(e, true)
	p.clk.line(e.at)
	switch e.kind {
	case parser.KindCollective:
		r.call(p, e)
	case parser.KindComm:
		r.comm(p, e)
	case parser.KindWarn:
		text, advice := e.warn()
		if advice && p.warn != nil && p.warn.text != "" && !p.warn.advice {
			return // an error stays its process's last word over a later notice
		}
		if p.warn == nil {
			p.warn = &procWarn{}
		}
		*p.warn = procWarn{text, e.line, advice}
	}
}

// binding is what p's pointer ptr stands for now: its binding, the overflow's, or nil.
func (r *Ranks) binding(p *proc, ptr uint64) *binding {
	if p.last != nil && p.lastPtr == ptr {
		return p.last
	}
	if b := p.bind.get(ptr); b != nil {
		p.lastPtr, p.last = ptr, b
		return b
	}
	if _, ok := p.over[ptr]; ok {
		return r.overBinding
	}
	return nil
}

func (r *Ranks) proc(k procKey) *proc {
	p := r.procs[k]
	if p == nil {
		p = &proc{} // its maps: on first use (few processes need them)
		r.procs[k] = p
	}
	return p
}

func (r *Ranks) call(p *proc, e *heldEvent) {
	p.clk.call(e.at)
	b := r.binding(p, e.comm)
	if b == nil || b.ended {
		dev := e.dev
		if e.global >= 0 {
			dev = -1 // the rank tells the ranks apart; RCCL's replayer logs every one on one device
		}
		key, dev := p.inferredKey(e.nranks, dev, e.global)
		b = r.bindNew(p, e, e.comm, key, GroupedInferred, e.global, dev)
		if e.global >= 0 && !b.over {
			b.m.rankFrom = rankGlobal
		}
	}
	selected := r.cfg.Selects(e.step)
	if b.over {
		if selected {
			r.overflowCall(Sig{Op: e.opName(), Count: e.count, Datatype: e.datatype(), RedOp: e.redOp(), Root: e.root}, e.nranks)
		}
		return
	}
	// The call is written where it is kept, the rank's last, and read from there: a Sig is
	// 48 bytes, which passing by value copied three times a call.
	m := b.m
	mc := m.callState()
	mc.last, mc.lastLine = Sig{Op: e.opName(), Count: e.count, Datatype: e.datatype(), RedOp: e.redOp(), Root: e.root}, e.line
	s := &mc.last
	var sid uint32
	if selected {
		cs := s.compared()
		if sid = b.g.refSig(m, &cs, r.sigs); sid == 0 {
			sid = r.sigs.idOf(&cs)
		}
		if !r.noVolume {
			m.addSelected(r.sigs, sid, s, max(e.nranks, b.g.NRanks), e.step)
		}
	}
	b.g.addCall(m, sid, s, r.steps.id(e.step), e.opCount)
	m.firstAt(e.at)
	if e.step >= 0 {
		mc.lastStep = max(mc.lastStep, e.step)
	}
}

func (r *Ranks) comm(p *proc, e *heldEvent) {
	ev := e.commLine()
	b := r.binding(p, ev.Comm)
	switch ev.Event {
	case "Init START", "Init COMPLETE":
		if b != nil && !b.ended && b.over {
			return // another Init line of a communicator counted in the overflow
		}
		if b != nil && !b.ended && (b.g.Key.CommID == ev.CommID || ev.CommID == 0) {
			b.m.Rank, b.m.CudaDev, b.m.rankFrom = ev.Rank, ev.CudaDev, rankInit
			return
		}
		key, evidence := r.initKey(p, ev)
		if b := r.bindNew(p, e, ev.Comm, key, evidence, ev.Rank, ev.CudaDev); !b.over {
			b.m.rankFrom = rankInit
		}
	case parser.EventLayout:
		if b != nil && !b.ended && !b.over {
			b.m.Rank, b.m.rankFrom = ev.Rank, rankInit
			b.g.Nodes, b.g.LocalRanks = max(b.g.Nodes, ev.NNodes), max(b.g.LocalRanks, ev.LocalRks)
		}
	default: // Destroy, Abort, Revoke
		r.end(p, ev.Comm, ev.Event)
	}
}

// end notes a Destroy, Abort or Revoke line of p's pointer ptr.
func (r *Ranks) end(p *proc, ptr uint64, event string) {
	b := r.binding(p, ptr)
	if b == nil || b.ended {
		return
	}
	what, phase, _ := strings.Cut(event, " ")
	// The pointer may be handed out again once Destroy or Abort has completed.
	ended := phase == "COMPLETE" && what != "Revoke"
	if b.over {
		if ended {
			delete(p.over, ptr) // a later call on it binds it anew, as after any Destroy
		}
		return
	}
	b.ended = ended
	b.m.setEnd(what)
	if b.ended {
		r.ended(b)
	}
}

// initKey is the group of a communicator named by an Init line: its commId, or for a split
// without one, its parent's group with the split count and color.
func (r *Ranks) initKey(p *proc, ev *parser.CommEvent) (GroupKey, Grouping) {
	if ev.CommID != 0 {
		return GroupKey{CommID: ev.CommID, NRanks: ev.NRanks}, GroupedCommID
	}
	if parent := p.bind.get(ev.Parent); ev.Parent != 0 && parent != nil && !parent.over {
		h := fnv.New64a()
		pk := parent.g.Key
		for _, v := range []int64{int64(pk.CommID), pk.NRanks, pk.Seq, ev.Split, ev.Color} {
			var b [8]byte
			for i := range b {
				b[i] = byte(v >> (8 * i))
			}
			h.Write(b[:])
		}
		return GroupKey{CommID: h.Sum64(), NRanks: ev.NRanks}, GroupedSplit
	}
	key, _ := p.inferredKey(ev.NRanks, ev.CudaDev, ev.Rank)
	return key, GroupedInferred
}

func (r *Ranks) bindNew(p *proc, e *heldEvent, ptr uint64, key GroupKey, evidence Grouping, rank, dev int64) *binding {
	g := r.groups[key]
	if g == nil && (r.over.has(key) || !r.room()) {
		if !r.over.has(key) {
			r.over.addKey(key)
		}
		r.over.Ranks++
		p.bind.del(ptr)
		p.last = nil
		if p.over == nil {
			p.over = make(map[uint64]struct{})
		}
		p.over[ptr] = struct{}{}
		return r.overBinding
	}
	if g == nil {
		g = &Group{Key: key, NRanks: key.NRanks, Evidence: evidence, steps: r.steps}
		r.groups[key] = g
	}
	m := newMember(e.host, e.pid, e.file, rank, dev)
	m.LaunchRank = e.label
	m.g = g
	g.Members = append(g.Members, m)
	p.members = append(p.members, m)
	b := &binding{m: m, g: g}
	p.bind.set(ptr, b)
	p.last = nil
	delete(p.over, ptr)
	return b
}

// Groups returns the communicators, largest first, then by key; each with its ranks sorted
// and the last WARN of each rank's process attached.
func (r *Ranks) Groups() []*Group {
	r.settle()
	for _, p := range r.procs {
		p.members = slices.DeleteFunc(p.members, func(m *Member) bool { return m.folded })
		p.folded = 0
		var last int64
		for _, m := range p.members {
			last = max(last, m.LastLine())
		}
		for _, m := range p.members {
			var w procWarn
			if p.warn != nil {
				w = *p.warn
			}
			m.setWarn(w.text, w.line, w.advice, last)
			p.clk.give(m)
		}
	}
	r.regroupInferred()
	r.adoptInferred()
	out := make([]*Group, 0, len(r.groups))
	for _, g := range r.groups {
		g.sortMembers()
		r.realign(g)
		g.shaky = shakyOverlap(g)
		out = append(out, g)
	}
	markCut(out)
	slices.SortFunc(out, func(a, b *Group) int {
		return cmp.Or(cmp.Compare(b.NRanks, a.NRanks), cmp.Compare(a.Key.Seq, b.Key.Seq),
			cmp.Compare(a.Key.CommID, b.Key.CommID))
	})
	return out
}

// LastCallLine is the line of the last call process pid of host issued in file, on any
// communicator, 0 where it issued none there: whether a process went on calling after a line
// of its own (diagnose's port events). Cheaper than Groups, which sorts and realigns them all.
func (r *Ranks) LastCallLine(file, host string, pid int64) int64 {
	r.settle()
	p := r.procs[procKey{file: file, host: host, pid: pid}]
	if p == nil {
		return 0
	}
	var last int64
	for _, m := range p.members {
		last = max(last, m.LastLine())
	}
	return last
}

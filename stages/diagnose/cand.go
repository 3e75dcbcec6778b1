package diagnose

import (
	"slices"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// Priorities of kinds where neither time nor the launcher orders two origins: a process's
// own error, then a network origin (or a system or NCCL internal error), invalid usage, an init failure, a rank behind or a
// mismatch, an abort, a watchdog timeout, and last what only names a peer.
var kindPrio = [numKinds]int{
	KindProcessExit: 0, KindOOM: 0, KindCudaError: 0, KindCrash: 0, KindNetworkError: 1,
	KindInvalidUsage: 2, KindInitFailure: 3, KindBehind: 4, KindMismatch: 4, KindRASReport: 4,
	KindAbort: 5, KindWatchdogTimeout: 6, KindConnectionClosed: 7, KindRemoteError: 8, KindSystemError: 1,
	KindInternalError: 1, KindShm: 1, KindTopology: 1,
}

// cand is a finding being put together.
type cand struct {
	kind  Kind
	procs []*proc
	ranks []int64 // ranks named directly (RAS, watchdog), beside the processes'
	// onlyRanks: the finding's ranks are ranks alone, not its processes' (the bootstrap root
	// that saw another rank claimed twice).
	onlyRanks bool
	// bare: error chains whose WARN the log does not show (not ncclRemoteError's).
	bare bool
	// stuck: the heartbeat monitor's lines on watchdogs that stopped (stuck.go).
	stuck    bool
	items    []*Item
	refs     []Ref // evidence that is no item (communicator marks, ranks' calls)
	at       parser.Stamp
	order    int // the input position of its first evidence
	launcher bool
	// sameAs counts the processes without a label that printed its last words, where they
	// were the launcher's first process's too (samewords.go); 0 otherwise.
	sameAs int
	fault  bool // the evidence proves a fault by itself
	shared bool
	peer   string // connection-closed: the host the peers name
	// peerRec is the process whose init lines printed the peer's address peerAddr, nil where
	// the log does not say (peername.go). peerAddr is the peer as the WARN printed it, where
	// that is not peer (an address, or a host's full name).
	peerRec  *Addr
	peerAddr string
	// storeRank is the rank whose communicator's unique id the peers waited for in vain,
	// storeProc its process where the log places it (store.go); -1 and nil where none.
	storeRank int64
	storeProc *proc
	// localGone is the local rank plus one whose connections several processes of its
	// host (peer) logged closing (localgone.go); 0 otherwise.
	localGone int64
	comm      string
	summary   string
	follows   int  // index among the findings, -1: none
	folded    bool // taken into a consequence
}

func newCand(k Kind, fault bool) *cand {
	return &cand{kind: k, fault: fault, order: 1 << 62, follows: -1, storeRank: -1}
}

// add takes item i (at input position pos) as evidence.
func (c *cand) add(it *Item, pos int, p *proc) {
	c.items = append(c.items, it)
	c.order = min(c.order, pos)
	if p != nil && !slices.Contains(c.procs, p) {
		c.procs = append(c.procs, p)
	}
	if !it.Time.IsZero() && (c.at.IsZero() || (comparable(it.Time.Stamp, c.at) && it.Time.Nanos < c.at.Nanos)) {
		c.at = it.Time.Stamp
	}
}

// mark adds a communicator event as evidence.
func (c *cand) mark(m *Mark, text string, p *proc) {
	c.refs = append(c.refs, Ref{File: m.File, Line: m.Line, Text: text})
	if p != nil && !slices.Contains(c.procs, p) {
		c.procs = append(c.procs, p)
	}
	if !m.Time.IsZero() && c.at.IsZero() {
		c.at = m.Time.Stamp
	}
}

// addRank names rank r among c's ranks, once.
func (c *cand) addRank(r int64) {
	if !slices.Contains(c.ranks, r) {
		c.ranks = append(c.ranks, r)
	}
}

// absorb takes o's evidence into c (o's process is c's).
func (c *cand) absorb(o *cand) {
	// nccl-tests' result line says only what the process's NCCL call returned: another
	// line's kind says more (the WARN's own phrase), whatever their priorities.
	cTest, oTest := testResultsOnly(c), testResultsOnly(o)
	c.items = append(c.items, o.items...)
	c.refs = append(c.refs, o.refs...)
	for _, p := range o.procs {
		if !slices.Contains(c.procs, p) {
			c.procs = append(c.procs, p)
		}
	}
	if o.onlyRanks { // the rank the root saw twice stays named
		c.ranks, c.onlyRanks = append(c.ranks, o.ranks...), true
	}
	cFirst := c.order < o.order
	c.order = min(c.order, o.order)
	c.fault = c.fault || o.fault
	if c.at.IsZero() {
		c.at = o.at
	}
	switch {
	case oTest && !cTest:
	case appException(o) && cFirst && kindPrio[c.kind] <= kindPrio[KindInitFailure]:
	case appException(c) && !cFirst && kindPrio[o.kind] <= kindPrio[KindInitFailure]:
		c.kind = o.kind
	case cTest && !oTest || kindPrio[o.kind] < kindPrio[c.kind]:
		c.kind = o.kind
	}
}

// appException reports whether c is an application's exception alone (Python's `Exception:`,
// a RuntimeError that names no NCCL or CUDA error), or how the program ended (a terminate, a
// signal: `Aborted (core dumped)` after an uncaught error): the program's word that something
// failed. Where the process's own error of a named kind came first (`Connect to ... failed :
// Connection refused`, `Reduce : invalid root 0`), that kind says what failed; the exception
// or the signal is how the program ended.
func appException(c *cand) bool {
	return c.kind == KindCrash && !slices.ContainsFunc(c.items, func(it *Item) bool {
		return it.Ev != evException && it.Ev != evSignal && it.Ev != evTerminate
	})
}

// gpus are the devices c's evidence lines name, sorted, each once.
func (c *cand) gpus() []int64 {
	if c.localGone > 0 {
		return nil // the witnesses' devices, not the local rank's that went away
	}
	var out []int64
	for _, it := range c.items {
		if it.GPU >= 0 && !slices.Contains(out, it.GPU) {
			out = append(out, it.GPU)
		}
	}
	slices.Sort(out)
	return out
}

// finding writes c as a Finding.
func (c *cand) finding() Finding {
	f := Finding{Kind: c.kind, Ranks: ranksOf(c.procs), Hosts: hostsOf(c.procs), Processes: namesOf(c.procs),
		Comm: c.comm, Shared: c.shared, Summary: c.summary, Evidence: []Ref{}}
	if c.onlyRanks {
		f.Ranks = nil
	}
	for _, r := range c.ranks {
		if !slices.Contains(f.Ranks, r) {
			f.Ranks = append(f.Ranks, r)
		}
	}
	slices.Sort(f.Ranks)
	switch {
	case c.peer == "" || c.peerRec != nil:
	case c.kind != KindConnectionClosed:
		f.Peer = c.peer // the other end of this process's error: not where it happened
	case !slices.Contains(f.Hosts, c.peer) && c.follows < 0:
		f.Hosts = append(f.Hosts, c.peer) // the peer that went away is the finding's subject
	}
	if f.Ranks == nil {
		f.Ranks = []int64{}
	}
	if f.Hosts == nil {
		f.Hosts = []string{}
	}
	if f.Processes == nil {
		f.Processes = []string{}
	}
	t, note := FormatTime(c.at)
	f.Time, f.TimeNote = NullText(t), note
	if c.follows >= 0 {
		i := c.follows
		f.Follows = &i
	}
	f.GPUs = c.gpus()
	for _, it := range c.items {
		if len(f.Evidence) < maxRefs {
			f.Evidence = append(f.Evidence, Ref{File: it.File, Line: it.Line, Text: refText(it)})
		}
	}
	for _, r := range c.refs {
		if len(f.Evidence) < maxRefs {
			f.Evidence = append(f.Evidence, r)
		}
	}
	c.peerFields(&f)
	return f
}

// maxRefs bounds the evidence lines one finding lists.
const maxRefs = 8

// before orders origins: by time where both have one that compares, else the launcher's word,
// else kind priority, else input order.
func before(a, b *cand) bool {
	if less, ok := timeOrder(a.at, b.at); ok {
		return less
	}
	if a.launcher != b.launcher {
		return a.launcher
	}
	if pa, pb := prio(a), prio(b); pa != pb {
		return pa < pb
	}
	if ea, eb := echoOnly(a), echoOnly(b); ea != eb {
		return eb
	}
	return a.order < b.order
}

// prio is c's place among the kinds where time does not order two findings (kindPrio). A
// shared memory segment that could not be made or grown for want of room in /dev/shm is a
// resource its host lacked, never what another process's failure left behind: it ranks with
// a process's own end (a CUDA error its peers hit after it is no cause of it).
func prio(c *cand) int {
	if c.kind == KindShm && shmNoSpace(c) {
		return 0
	}
	return kindPrio[c.kind]
}

// timeOrder reports whether time a is before time b, and whether the two order at all
// (comparable, and not the same).
func timeOrder(a, b parser.Stamp) (less, ok bool) {
	if comparable(a, b) && a.Nanos != b.Nanos {
		return a.Nanos < b.Nanos, true
	}
	return false, false
}

// echoOnly reports whether c's evidence is only lines that repeat the result of a process's
// own NCCL call (ownResultKind: nccl-tests' `Test NCCL failure ... 'unhandled cuda error'`
// with its trail, TensorFlow's OP_REQUIRES, an NCCLCHECK's what()): the process failed, but
// its lines do not say where. Another process's error of the same priority that does (a
// CUDA WARN naming the failure) comes first where time does not order them: processes'
// output interleaves in any order, and the one with the cause is the one to read first.
func echoOnly(c *cand) bool {
	for _, it := range c.items {
		if _, _, ok := ownResultKind(it); !ok && it.Ev != evTestTrail {
			return false
		}
	}
	return len(c.items) > 0
}

// who names a finding's processes for a sentence.
func who(c *cand) string {
	if len(c.procs) == 1 && len(c.ranks) == 0 {
		p := c.procs[0]
		switch {
		case p.rank >= 0 && p.pid >= 0:
			return "rank " + itoa(p.rank) + " (" + p.name() + ")"
		case p.rank >= 0 && p.host != "":
			return "rank " + itoa(p.rank) + " on " + p.host
		case p.rank >= 0:
			return "rank " + itoa(p.rank)
		}
		return p.name()
	}
	rs := ranksOf(c.procs)
	for _, r := range c.ranks {
		if !slices.Contains(rs, r) {
			rs = append(rs, r)
		}
	}
	slices.Sort(rs)
	if len(rs) > 0 {
		return "ranks " + rankList(rs)
	}
	if hs := hostsOf(c.procs); len(hs) > 0 {
		return "processes on " + strings.Join(hs, ", ")
	}
	if g := c.gpus(); len(c.procs) == 0 && len(g) == 1 {
		return "the process on GPU " + itoa(g[0]) // its lines kept their `[dev]` alone
	}
	return "a process"
}

package diagnose

import (
	"slices"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// builder puts a Report together from the evidence.
type builder struct {
	// calls: the log holds collective calls, so its job got past its set-up (retry.go).
	calls  bool
	e      *Evidence
	x      *procIndex
	own    map[*proc]*cand // each process's own origin evidence
	owners []*proc         // own's keys in input order
	loose  []*cand         // origins no process could be given to
	conseq map[Kind]*cand  // follow-on evidence, one finding per kind
	closed map[string]*cand
	addrs  addrBook // whose each address is, from the processes' init lines
	// byLabel maps the first label of each host of the log to that host, "" where two share
	// it (hostNamed); made on first use.
	byLabel map[string]string
	peers   []string
	watch   *cand
	stuck   *cand // the heartbeat monitor's lines on stuck watchdogs (stuck.go)
	desync  *cand // the ranks PyTorch's desync report names (desync.go)
	ras     *cand
	rasRep  *rasReport // what ras's lines say, read in order
	extra   []*cand    // origins from the ranks family
	// codes and frames tie each WARN item to its chain's ncclResult and first frame (-1:
	// none); bare are the processes' frames no WARN shown starts.
	codes, frames []int
	bare          []int
	byProc        procComms
	cprocs        []*proc // the processes byProc lists, in input order
	// lastErrs are the NCCL exceptions' ncclResult lines and `Last error:` messages
	// (excorigin.go).
	lastErrs []excRef
	// torn are the exceptions of work a destroyed process group aborted (torn.go).
	torn []excRef
	// localClosed are the items of the proxy services' closed local connections
	// (localgone.go).
	localClosed []int
	// down marks the NET/IB port errors no port active follows (portdown.go).
	down []bool
}

// Build returns the Report of the evidence in set, joined with the ranks family's verdicts
// where the run had it.
func Build(set *stages.Set) Report {
	e := PartOf(set).Evidence()
	e.Items = underRanks(e.Items)
	kept := len(e.Items)
	e.Items = pairTerminates(e.Items) // terminate.go
	e.Items = pairTestTrails(e.Items) // nccltests.go
	testHeadProcs(e.Items)            // testhead.go
	b := &builder{e: &e, x: newProcIndex(&e), own: map[*proc]*cand{}, conseq: map[Kind]*cand{}, closed: map[string]*cand{}, addrs: newAddrBook(e.Addrs)}
	strangeLabels(&e, b.x) // reread.go
	b.calls = stages.LinesOf(set).ByKind[parser.KindCollective] > 0
	b.codes, b.frames, b.bare = chainCodes(e.Items)
	b.bare = unswallowed(e.Items, b.bare) // swallowed.go
	if b.down = portsDown(e.Items); b.down != nil {
		keptCalling(set, e.Items, b.down)
		seenAlone(e.Items, b.down, b.x)
	}
	for i := range e.Items {
		b.item(&e.Items[i], i)
	}
	b.foldCQE() // netcqe.go
	b.rasJSON()
	b.rasDone()
	lp, litems := launcherFirst(&e, b.x)
	b.aborts()
	b.retriesSpent() // retry.go
	b.initFailures()
	b.extra = ranksFindings(set, b.x)
	b.exceptionOrigins(lp != nil)
	b.tornOrigin(lp)
	if b.sharedCause(lp) || b.sharedChain(lp) || b.sharedHas(lp) || b.watchAborted(lp, litems) {
		b.launcherFollows(litems) // its exit follows from the shared cause (mayBeOwner)
		lp, litems = nil, nil
	}
	r := b.assemble(lp, litems)
	r.Left = e.Seen - int64(kept) + e.RASLeft
	if r.Status == StatusHealthy {
		r.Status, r.Reason = thin(set)
	}
	if r.Status == StatusHealthy {
		if tb := e.Traceback; tb != nil {
			r.Status, r.Reason = StatusUnknown, openTracebackReason(tb) // opentb.go
		}
	}
	return r
}

// item files one item of evidence.
func (b *builder) item(it *Item, pos int) {
	p := b.x.of(it)
	ev := it.Ev
	if ev == evNetWeak && pos < len(b.down) && b.down[pos] && !b.endedBefore(p, it) {
		ev = evNetError // a port that went down for good: the host's link (portdown.go)
	}
	switch ev {
	case evException, evTerminate, evSignal, evCuda, evInvalid, evNetError, evBootstrap, evSystem, evShm, evInternal:
		if tornDown(it) {
			b.addTorn(it, pos, p) // torn.go
			return
		}
		if r, _, ok := storeSource(it.Text); ok && it.Ev == evException {
			b.storeWait(it, pos, p, r) // store.go
			return
		}
		if peer := glooPeer(it.Text); peer != "" && it.Ev == evException {
			q := *it // gloo.go: the peer closed the connection, as NCCL's own WARN says it
			q.Ev, q.Peer = evRemoteClosed, peer
			b.item(&q, pos)
			return
		}
		if spawnWrapper(it) {
			b.consequence(KindProcessExit, it, pos, p) // spawn.go: the child's error is the origin
			return
		}
		k, origin := ownKind(it)
		if strings.Contains(it.Name, "ChildFailedError") {
			b.consequence(KindProcessExit, it, pos, p) // torchrun's own word, not a process's
			return
		}
		if !origin {
			if q := soleProc(b.x, it, p); echoesOwn(it, b.own[q]) {
				b.own[q].add(it, pos, q) // the process's own error, surfaced in its framework
				return
			}
			b.consequence(KindRemoteError, it, pos, p)
			return
		}
		p = soleProc(b.x, it, p)
		// A failed system call proves a fault where an error chain follows it, or where it
		// is a verbs call of a connection's set-up (netwarn.go; a listening socket's bind is
		// read as a network error where it is kept: socketBind).
		c := newCand(k, (it.Ev != evSystem || b.codes[pos] > 0 || verbsSetup(it.Text)) && !pluginNotice(it, b.codes[pos]))
		c.add(it, pos, p)
		namedRanks(c, it) // dupgpu.go
		if b.foldAfterAbort(p, c, pos) {
			return
		}
		b.ownAdd(p, c)
	case evWarn:
		b.chainWarn(it, pos, p)
	case evFollowOn:
		if !b.connectOrigin(it, pos, p) {
			b.consequence(KindRemoteError, it, pos, p)
		}
	case evLocalClosed:
		b.localClosed = append(b.localClosed, pos)
	case evLastError, evNCCLResult:
		b.lastErrs = append(b.lastErrs, excRef{it, pos, p})
	case evRemoteClosed:
		if it.Peer == "" {
			b.consequence(KindRemoteError, it, pos, p) // no peer to blame: a follow-on only
			return
		}
		if loopback(it.Peer) && p != nil && p == b.x.loneProc() {
			b.ownLoopback(it, pos, p) // peername.go
			return
		}
		// The peers' closed connections are filed by host where the log says whose the
		// address is, so that they fold under that host's finding.
		key, a := it.Peer, b.addrs.lookup(it.Peer)
		if a != nil {
			key = a.Host
		} else if h := b.hostNamed(it.Peer); h != "" {
			key = h // NCCL prints the peer's full name (`gpu-b.cluster.internal`), the log its host
		}
		c := b.closedPeer(key)
		if a != nil && c.peerRec == nil {
			c.named(a, it.Peer)
		} else if a == nil && key != it.Peer && c.peerAddr == "" {
			c.peerAddr = it.Peer // as the WARN printed it
		}
		c.add(it, pos, p)
	case evWatchdog:
		if b.watch == nil {
			b.watch = newCand(KindWatchdogTimeout, true)
		}
		if sameTakenDown(b.watch, it) {
			return // takendown.go
		}
		b.watch.add(it, pos, p)
		if !slices.Contains(b.watch.ranks, it.Rank) && it.Rank >= 0 {
			b.watch.ranks = append(b.watch.ranks, it.Rank)
		}
	case evStuck:
		b.stuckItem(it, pos, p)
	case evDesync:
		b.desyncItem(it, pos) // desync.go
	case evRAS:
		b.rasItem(it, pos)
	case evTaskExit, evCancelled, evMPIExit, evRayExit:
		b.consequence(KindProcessExit, it, pos, p)
		if c := b.conseq[KindProcessExit]; it.Ev == evTaskExit {
			c.ranks = taskRange(c.ranks, it, -1)
		}
	}
}

// closedPeer is the finding of the peers that lost the host (or rank) key, made where none is.
func (b *builder) closedPeer(key string) *cand {
	c := b.closed[key]
	if c == nil {
		c = newCand(KindConnectionClosed, true)
		c.peer = key
		b.closed[key] = c
		b.peers = append(b.peers, key)
	}
	return c
}

// ownAdd gives a process's origin evidence to it (or keeps it aside where it names none).
func (b *builder) ownAdd(p *proc, c *cand) {
	if p == nil {
		if o := c10dLoose(b.loose, c); o != nil {
			o.absorb(c) // glog's line and the exception of one failure to join (c10dsock.go)
			return
		}
		b.loose = append(b.loose, c)
		return
	}
	if o := b.own[p]; o != nil {
		k := o.kind
		o.absorb(c)
		if k == KindNetworkError && c.kind == KindCudaError && o.order < c.order {
			// Its network failed first: NCCL's kernels and calls on the connections that
			// broke fail after it (an illegal memory access, an unhandled CUDA error).
			o.kind = k
		}
		return
	}
	b.own[p] = c
	b.owners = append(b.owners, p)
}

func (b *builder) consequence(k Kind, it *Item, pos int, p *proc) {
	c := b.conseq[k]
	if c == nil {
		c = newCand(k, false)
		b.conseq[k] = c
	}
	c.add(it, pos, p)
}

// echoesOwn reports whether an NCCL exception (`NCCL error in: ..., internal error, NCCL
// version 2.7.8`) repeats the error its process already logged as its own fault: its
// ncclResult is a local one (not ncclRemoteError), and the process's WARN chain came first.
func echoesOwn(it *Item, own *cand) bool {
	r := parser.NCCLResult(it.Code)
	return own != nil && own.fault && it.Code > 0 && it.Code < int64(numResultKinds) && r != parser.ResultRemote
}

// ownKind is what a process's own line says, and whether it is an origin rather than the
// echo of another process's failure (ncclRemoteError, DistBackendError).
func ownKind(it *Item) (Kind, bool) {
	t, n := it.Text, it.Name
	switch it.Ev {
	case evNetError, evBootstrap, evSystem, evNetWeak: // evNetWeak: a port down (portdown.go)
		if noInterface(t) {
			return KindInitFailure, true // the set-up's, not a link's: no interface to start on
		}
		return KindNetworkError, true
	case evShm:
		return KindShm, true
	case evInternal:
		return KindInternalError, true
	case evCuda:
		if strings.Contains(t, "out of memory") {
			return KindOOM, true // `Cuda failure 'out of memory'`, as the exception's OutOfMemoryError
		}
		return KindCudaError, true
	case evInvalid:
		if _, _, ok := devMismatch(it); ok {
			return KindMismatch, true // NCCL's own check of the ranks' calls (2.4-2.7; devcheck.go)
		}
		if strings.Contains(t, ibSizeMismatch) {
			return KindMismatch, true // the peer sent more than this rank's call posted to receive
		}
		return KindInvalidUsage, true
	case evSignal:
		return KindCrash, true
	}
	if k, origin, ok := ownResultKind(it); ok {
		return k, origin
	}
	if i := strings.Index(t, string(watchdogExcHead)); i >= 0 {
		// `what():  [Rank 0] NCCL watchdog thread terminated with exception: CUDA error: ...`:
		// the exception the watchdog ended with is the process's error, whatever type
		// (DistBackendError) wraps it.
		t, n = t[i+len(watchdogExcHead):], ""
	}
	if _, _, ok := storeJoined(t); ok {
		return KindInitFailure, true // rendezvous.go
	}
	if c10dFailed(t) {
		return KindInitFailure, true // c10dsock.go: the process's own failure to join
	}
	switch {
	case strings.Contains(n, "OutOfMemory") || strings.Contains(t, "out of memory"):
		return KindOOM, true
	case strings.Contains(n, "DistBackendError") || strings.Contains(t, "NCCL error") || strings.Contains(t, numberedHead) ||
		strings.Contains(t, "remote process") || strings.Contains(n, "DistNetworkError"):
		return KindRemoteError, false
	case it.Ev == evException && ncclCallFailed(t) >= 0:
		// A framework's report of an NCCL call that returned a result
		// (TensorFlow's `UnknownError: ncclCommInitRank failed: unhandled system error`):
		// the repeat of the process's own NCCL error, as the PyTorch lines above are.
		return KindRemoteError, false
	case strings.Contains(t, "CUDA error"):
		return KindCudaError, true
	}
	return KindCrash, true
}

// thin says whether a job without a proven fault is healthy, or too thin to tell.
func thin(set *stages.Set) (Status, string) {
	l := stages.LinesOf(set)
	nccl := int64(0)
	for _, k := range []parser.Kind{parser.KindCollective, parser.KindComm, parser.KindInfo, parser.KindWarn, parser.KindTrace} {
		nccl += l.ByKind[k]
	}
	if bad := l.ByKind[parser.KindMalformed]; nccl == 0 && bad > 0 {
		// Its warnings name each line: "no NCCL lines" would contradict them.
		return StatusUnknown, "the input's NCCL lines are in a form nccllog does not read: " + plural(int(bad), "malformed line", "malformed lines")
	}
	if nccl == 0 {
		return StatusUnknown, "the input holds no NCCL lines"
	}
	return StatusHealthy, "no evidence of a fault"
}

// launcherFollows files the launcher's lines on its first process as a consequence, where
// that process is not the first fault (those of a task exit are filed so already).
func (b *builder) launcherFollows(litems []*Item) {
	had := b.conseq[KindProcessExit]
	for _, it := range litems {
		if had != nil && slices.Contains(had.items, it) {
			continue
		}
		b.consequence(KindProcessExit, it, b.posOf(it), b.x.of(it))
	}
}

// positions are the indexes in the evidence of its, items of it, in one pass over it (posOf
// for each would pass over it for each).
func (b *builder) positions(its []*Item) map[*Item]int {
	want := make(map[*Item]int, len(its))
	for _, it := range its {
		want[it] = -1
	}
	for i := range b.e.Items {
		if _, ok := want[&b.e.Items[i]]; ok {
			want[&b.e.Items[i]] = i
		}
	}
	return want
}

// posOf is the index in the evidence of it, an item of it.
func (b *builder) posOf(it *Item) int {
	for i := range b.e.Items {
		if &b.e.Items[i] == it {
			return i
		}
	}
	return -1
}

// sharedHas reports whether lp is one of the processes of a shared finding (an init that
// failed the same way on every process): the launcher's first exit is then one of theirs.
func (b *builder) sharedHas(lp *proc) bool {
	return lp != nil && slices.ContainsFunc(b.loose, func(c *cand) bool { return c.shared && slices.Contains(c.procs, lp) })
}

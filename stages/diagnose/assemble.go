package diagnose

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// assemble orders the origins, picks the first fault, folds its consequences under it and
// lists the other origins after them.
func (b *builder) assemble(lp *proc, litems []*Item) Report {
	origins := b.origins(lp, litems)
	if !b.proven(origins) {
		return b.suspects(origins)
	}
	out := b.fold([]*cand{origins[0]})
	for _, c := range origins[1:] {
		if !c.folded {
			out = append(out, c)
		}
	}
	r := Report{Status: StatusFault, Reason: "the evidence proves a fault"}
	if len(out) > maxFindings {
		r.More, out = len(out)-maxFindings, out[:maxFindings]
	}
	r.Findings = make([]Finding, len(out))
	for i, c := range out {
		b.namePeer(c)
		if k := b.configCause(c); k != nil && c.follows < 0 {
			c.summary = causeSummary(c, k)
		} else if c.summary == "" {
			c.summary = summarize(c)
		}
		c.summary = c.withPeer(c.summary)
		r.Findings[i] = c.finding()
	}
	return r
}

// leadItem is the item a finding's sentence quotes: its first error line, past a network
// plugin's notices where an error of its own follows them (aws-ofi-nccl's `NET/OFI GDR
// disabled on GDR-supported instance type p4d.24xlarge` before `NET/OFI Creating new
// endpoint ... failed`), and past a framework's repeat of a WARN; nil where none.
func leadItem(c *cand) *Item {
	var notice *Item
	for _, it := range c.items {
		if it.Ev == evException && ncclException(it) && firstWarnText(c) != "" {
			continue // a framework's repeat of the WARN (echoesOwn): the WARN says it first
		}
		if it.Ev == evException || it.Ev == evNetError || it.Ev == evCuda || it.Ev == evInvalid || it.Ev == evShm || it.Ev == evInternal {
			if it.Ev == evNetError && ofiNotice(it.Text) { // netwarn.go
				notice = cmp.Or(notice, it)
				continue
			}
			return it
		}
	}
	return notice
}

// maxFindings bounds the findings a report lists (a log where thousands of hosts each close
// on their own); More counts the others.
const maxFindings = 256

// proven reports whether the evidence proves a fault: an origin that does by itself, or
// errors that only a fault makes (watchdog timeouts, peers closing, remote errors).
func (b *builder) proven(origins []*cand) bool {
	if len(origins) == 0 {
		return false
	}
	rem := b.conseq[KindRemoteError]
	return slices.ContainsFunc(origins, func(c *cand) bool { return c.fault }) || b.watch != nil || b.stuck != nil ||
		len(b.closed) > 0 || (rem != nil && len(rem.items) > 0)
}

// suspects is the report where no evidence proves a fault: unknown where some rank stands
// out (behind, or aborted while the log shows no other rank ending), healthy otherwise.
func (b *builder) suspects(origins []*cand) Report {
	r := Report{Status: StatusHealthy, Findings: []Finding{}}
	for _, c := range origins {
		if c.kind != KindBehind && c.kind != KindAbort {
			continue
		}
		if c.summary == "" {
			c.summary = summarize(c)
		}
		r.Findings = append(r.Findings, c.finding())
	}
	if len(r.Findings) > 0 {
		r.Status = StatusUnknown
		r.Reason = "no evidence proves a fault, but ranks stopped at different calls (or one aborted) as where a job hangs or where its log was cut"
	}
	if ps, its := b.stillRetrying(); len(ps) > 0 { // retry.go
		r.Findings = append(r.Findings, retryFinding(ps, its))
		if r.Status != StatusUnknown {
			r.Status = StatusUnknown
			r.Reason = "no evidence proves a fault, but processes kept retrying a connect with no completed init after it, as where a peer never listens or where the log was cut"
		}
	}
	if rem := b.conseq[KindRemoteError]; r.Status != StatusUnknown && rem != nil && len(rem.items) > 0 {
		r.Findings = append(r.Findings, b.followOnsFinding(rem))
		r.Status = StatusUnknown
		r.Reason = "the log shows only NCCL errors that pass on a fault met elsewhere (a peer or a local rank gone, a request the proxy failed): what failed first is not in it"
	}
	if r.Status != StatusUnknown {
		if cs := b.bareSuspects(); len(cs) > 0 { // chains.go
			for _, c := range cs {
				r.Findings = append(r.Findings, c.finding())
			}
			r.Status = StatusUnknown
			r.Reason = "no evidence proves a fault, but processes printed NCCL error chains (`file:line -> N`) without the WARN that starts them: the log does not show what failed"
		}
	}
	return r
}

// origins lists every candidate first fault, in the order before gives.
func (b *builder) origins(lp *proc, litems []*Item) []*cand {
	for _, c := range b.extra {
		if b.rasNames(c) {
			b.ras.absorb(c)
			b.ras.kind = KindRASReport
			continue
		}
		if p := c.procs[0]; len(c.procs) == 1 && b.own[p] != nil {
			o := b.own[p]
			o.absorb(c)
			o.summary = ""
			if o.kind == c.kind {
				o.summary = c.summary
			}
			continue
		}
		b.loose = append(b.loose, c)
	}
	if lp != nil {
		b.claimSame(lp) // samewords.go
		b.launcherCand(lp, litems)
	}
	var out []*cand
	for _, p := range b.owners {
		if c := b.own[p]; c != nil {
			out = append(out, c)
		}
	}
	out = append(out, b.loose...)
	if b.ras != nil && b.ras.fault {
		out = append(out, b.ras)
	}
	out = b.watchEnded(out) // watchend.go
	if d := b.desync; d != nil && len(out) == 0 {
		d.summary = desyncSummary(d) // desync.go: PyTorch's own word on who is out of step
		out = append(out, d)
	}
	// A watchdog that only says it takes its process down (no timeout of its own) follows
	// a peer that went away, where its exception's last error names one (excorigin.go), and
	// a connection a peer reset before it (unnamedpeer.go).
	if w := b.watch; w != nil && len(out) == 0 && !(onlyTakenDown(w) && (len(b.peers) > 0 || b.lostBefore(w))) {
		b.watch = nil
		if m := watchMismatch(w); m != nil {
			out = append(out, m) // watchorder.go
		} else if m := watchMissing(w, b.x.world); m != nil {
			out = append(out, m)
		} else if m := watchLagging(w); m != nil {
			out = append(out, m) // watchlag.go
		} else {
			w.shared = b.everyRank(w.ranks, watchRepeats(w))
			out = append(out, w)
		}
	}
	if s := b.stuck; s != nil && len(out) == 0 {
		b.stuck = nil // the only evidence: the hang's first sign the log holds
		out = append(out, s)
	}
	var api *cand
	if len(out) == 0 {
		api = b.apiChain() // apichain.go: a call that failed without a WARN
		if api != nil && b.closedAfter(api) {
			return []*cand{api} // the peer that went away: the connections closed follow it
		}
		for _, peer := range b.peers {
			out = append(out, b.closed[peer])
			delete(b.closed, peer)
		}
		if len(out) == 0 {
			if c := b.localGone(); c != nil {
				out = append(out, c) // localgone.go
			}
		}
	}
	if len(out) == 0 {
		if c := b.taskSet(lp); c != nil {
			out = append(out, c)
		} else if c := b.unnamedExit(lp); c != nil {
			out = append(out, c)
		} else if api != nil {
			out = append(out, api)
		} else if c := b.lostUnnamed(); c != nil {
			out = append(out, c) // unnamedpeer.go
		}
	}
	slices.SortStableFunc(out, func(x, y *cand) int {
		switch {
		case before(x, y):
			return -1
		case before(y, x):
			return 1
		}
		return 0
	})
	return out
}

// closedAfter reports whether a connection closed by a peer on the host of api's process,
// api's failed call, comes after that call: the process whose call failed is the peer that
// went away (a local rank's init that failed, its proxy then gone), and the closed
// connections are what its peers saw of it.
func (b *builder) closedAfter(api *cand) bool {
	hosts := hostsOf(api.procs)
	for _, peer := range b.peers {
		c := b.closed[peer]
		if c != nil && slices.Contains(hosts, peer) && earlier(api, c) {
			return true
		}
	}
	return false
}

// earlier reports whether a's first evidence came before b's: by time where both carry
// comparable ones, else by their places in the input.
func earlier(a, b *cand) bool {
	if less, ok := timeOrder(a.at, b.at); ok {
		return less
	}
	return a.order < b.order
}

// rasNames reports whether a RAS report that proves a fault names c's ranks (a rank
// behind that RAS lists as an outlier is the same finding).
func (b *builder) rasNames(c *cand) bool {
	if b.ras == nil || !b.ras.fault {
		return false
	}
	rs := ranksOf(c.procs)
	return len(rs) > 0 && !slices.ContainsFunc(rs, func(r int64) bool { return !containsRank(b.ras.ranks, r) })
}

// launcherCand marks the process the launcher names first: its own finding where it has
// one (its last words give the kind), else a process-exit finding.
func (b *builder) launcherCand(lp *proc, litems []*Item) {
	c := b.own[lp]
	if c == nil {
		for _, p := range b.owners {
			if q := b.own[p]; q != nil && ((lp.rank >= 0 && p.rank == lp.rank) || (lp.rank < 0 && lp.host == p.host && (lp.pid < 0 || p.pid < 0 || lp.pid == p.pid))) {
				c = q
				break
			}
		}
	}
	if c == nil {
		c = b.loneOwn(lp)
	}
	if c == nil {
		c = b.claimResult(lp, litems) // samewords.go
	}
	if c == nil {
		c = newCand(KindProcessExit, true)
		c.procs = []*proc{lp}
		b.own[lp] = c
		b.owners = append(b.owners, lp)
	}
	// Its last words give the kind where they name one (out of memory, a CUDA error, NCCL's
	// word for what the process did wrong, a signal); an application's exception (KeyError,
	// ...) is the exit's reason, not a kind.
	if !lastWordsKind[c.kind] && !(c.kind == KindCrash && slices.ContainsFunc(c.items, func(it *Item) bool { return it.Ev == evSignal })) {
		c.kind = KindProcessExit
	}
	c.launcher, c.fault = true, true
	c.items = slices.Concat(litems, b.otherExitNotices(litems), c.items)
	c.items = withAgent(b.e, litems, c.items) // after the process's own last words: they say more
	c.summary = ""                            // summarize says the launcher's word and the exit code
	if c2 := b.conseq[KindProcessExit]; c2 != nil {
		c2.items = slices.DeleteFunc(c2.items, func(it *Item) bool { return slices.Contains(litems, it) || it.Ev == evMPIExit })
		c2.procs, c2.ranks = nil, nil
		for _, it := range c2.items {
			if p := b.x.of(it); p != nil && p != lp && !slices.Contains(c.procs, p) {
				c2.procs = appendProc(c2.procs, p)
			}
			c2.ranks = taskRange(c2.ranks, it, lp.rank)
		}
	}
}

// lastWordsKind holds the kinds a process's own last words give the exit the launcher
// reports first: what the process met, by CUDA's or NCCL's word.
var lastWordsKind = [numKinds]bool{KindOOM: true, KindCudaError: true, KindInvalidUsage: true, KindMismatch: true,
	KindSystemError: true, KindInternalError: true, KindShm: true, KindTopology: true}

// loneOwn is the finding of the one process the NCCL lines show, where the launcher names
// its first process by rank alone (mpirun's `Process name: [[25545,1],0]`), the log knows
// that process's rank by no line, and that process has an error of its own (nccl-tests'
// `Test failure`): the process that failed is the one that exited. Nil otherwise.
func (b *builder) loneOwn(lp *proc) *cand {
	if b.x.lone == nil || lp.host != "" || lp.pid >= 0 || lp.rank < 0 || b.x.byRank[lp.rank] != nil {
		return nil
	}
	q := b.x.loneProc()
	if q.rank >= 0 {
		return nil
	}
	return b.own[q]
}

// otherExitNotices are Open MPI's notices of a non-zero exit other than those among litems:
// the launcher prints `Primary job terminated normally, but 1 process returned ...` before
// the block that names the process, and both tell of the exit of the process it names.
func (b *builder) otherExitNotices(litems []*Item) []*Item {
	var out []*Item
	if c := b.conseq[KindProcessExit]; c != nil {
		for _, it := range c.items {
			if it.Ev == evMPIExit && !slices.Contains(litems, it) {
				out = append(out, it)
			}
		}
	}
	return out
}

// everyRank reports whether rs is every rank of the job that the log shows.
//
// Where no communicator line gives the job's size, the processes the NCCL lines name by host
// and pid count instead: four processes on a host whose watchdogs name three ranks are not
// every rank.
func (b *builder) everyRank(rs []int64, more int64) bool {
	n := b.x.world
	if n == 0 {
		n = int64(len(b.commProcs()))
	}
	if n == 0 {
		n = b.x.enveloped()
	}
	all := int64(len(rs)) + more // more: processes Ray folded into the lines (rayrepeat.go)
	return all >= 2 && (n == 0 || all >= n)
}

// fold puts the consequences under the first fault: other processes' aborts, watchdog
// timeouts, follow-on errors, launcher exits, and peers closing connections (under the
// finding on the host they name).
func (b *builder) fold(out []*cand) []*cand {
	if len(out) == 0 {
		return nil
	}
	firstProcs := out[0].procs
	bare := b.foldBare(out[0])
	for _, k := range []Kind{KindRemoteError, KindProcessExit} {
		if c := b.conseq[k]; c != nil && len(c.items) > 0 {
			c.follows = 0
			out = append(out, c)
		}
	}
	out = append(out, bare...)
	for _, w := range []*cand{b.watch, b.stuck} {
		if w != nil {
			w.follows = 0
			out = append(out, w)
		}
	}
	for _, peer := range b.peers {
		c := b.closed[peer]
		if c == nil {
			continue
		}
		c.follows = 0
		for i, o := range out {
			if o.follows < 0 && slices.Contains(hostsOf(o.procs), peer) {
				c.follows = i // the first finding on that host: the first fault where it is
				break
			}
		}
		out = append(out, c)
	}
	b.foldAborts(&out, firstProcs)
	return out
}

// foldAborts moves the abort-only findings of other processes under the first fault.
func (b *builder) foldAborts(out *[]*cand, firstProcs []*proc) {
	ab := newCand(KindAbort, false)
	ab.follows = 0
	for _, p := range b.owners {
		c := b.own[p]
		if c == nil || c.kind != KindAbort || c.fault || slices.Contains(firstProcs, p) {
			continue
		}
		ab.absorb(c)
		c.folded = true
	}
	if len(ab.procs) > 0 {
		*out = append(*out, ab)
	}
}

// summarize writes the sentence of a finding that has none yet.
func summarize(c *cand) string {
	if c.bare {
		return bareSummary(c)
	}
	text := ""
	if len(c.items) > 0 {
		text = c.items[len(c.items)-1].Text
		if it := leadItem(c); it != nil {
			text = it.Text
			if it.Name != "" && it.Ev == evException {
				text = it.Name + ": " + it.Text
			}
		}
		text = firstWarn(c, text)
		if last := c.items[len(c.items)-1]; text == "" && last.Ev == evTerminate {
			text = refText(last) // a terminate's head whose what() never came: what was thrown
		}
	}
	after := ""
	if c.follows >= 0 {
		after = " after it"
	}
	switch c.kind {
	case KindProcessExit:
		if s := raySummary(c); s != "" {
			return s
		}
		if c.follows >= 0 {
			if len(c.procs) == 0 {
				return "The launcher reported the job's end" + after + "."
			}
			return who(c) + " ended" + after + ", as the launcher reports."
		}
		s := who(c) + " exited first"
		if slurmOOM(c.items) {
			s = who(c) + " ran out of host memory first (Slurm's task state: Out Of Memory)"
		} else if sig := noticedSignal(c.items); sig != "" {
			s = who(c) + " was killed by " + sig + " first"
		} else if code := exitCode(c.items); code != "" {
			s += " with exit code " + code
			if sig := exitSignalOf(c.items); sig != "" {
				s += " (" + sig + ")"
			}
		}
		s += ", as the launcher reports"
		if words := lastWords(c); words != "" {
			s += ", after " + short(words)
		}
		if c.sameAs > 1 {
			return s + fmt.Sprintf("; %d processes printed that exception, unlabelled: every rank likely met the same error in the code they run.", c.sameAs)
		}
		return s + "; the other ranks' errors follow from it."
	case KindOOM:
		return who(c) + " ran out of GPU memory first: " + short(text)
	case KindCudaError:
		return who(c) + " hit a CUDA error first: " + short(text)
	case KindCrash:
		if sig := signalName(c); text == "" && sig != "" {
			return who(c) + " was killed by a signal first: " + sig
		}
		return who(c) + " failed first: " + short(text)
	case KindNetworkError:
		if s := portDownSummary(c, after); s != "" {
			return s
		}
		if refused(text) {
			return who(c) + " could not connect to its peer, which was not listening (it likely died or never started): " + short(text)
		}
		return who(c) + " had a network error first: " + short(text)
	case KindInternalError:
		return who(c) + " hit an NCCL internal error first (a check inside NCCL failed: a bug, or ranks whose topology, version or settings disagree): " + short(text)
	case KindSystemError:
		if driverMismatch(text) {
			return who(c) + " could not start NVML first: the GPU driver and its library differ (a driver upgraded without a reboot, or a container's library not the host's): " + short(text)
		}
		return who(c) + " hit a system error first: " + short(text)
	case KindShm:
		return who(c) + " could not make or attach a shared memory segment first: " + short(shmText(c, text)) + shmHint(c)
	case KindTopology:
		return who(c) + " could not read the machine's topology first (NCCL's topology detection at init: sysfs, NVML, a topology or graph file): " + short(text)
	case KindMismatch:
		if s := devMismatchSummary(c); s != "" {
			return s
		}
		if strings.Contains(text, ibSizeMismatch) {
			return who(c) + " received more than its call posted first: the ranks called collectives of different sizes (check the calls each rank made): " + short(text)
		}
	case KindInvalidUsage:
		if s := dupRankSummary(c); s != "" {
			return s
		}
		if s := dupGPUSummary(c); s != "" {
			return s
		}
		return who(c) + " made an invalid NCCL call: " + short(text)
	case KindInitFailure:
		if s := joinSummary(c, text); s != "" {
			return s
		}
		if noInterface(text) {
			return who(c) + " could not start NCCL: it found no network interface to bootstrap on (NCCL_SOCKET_IFNAME names none of the host's, or none is up): " + short(text)
		}
		if s := c10dSummary(c, text); s != "" {
			return s
		}
		return who(c) + ": communicator init never completed, after: " + short(text)
	case KindAbort:
		return who(c) + " aborted" + after + "."
	case KindWatchdogTimeout:
		if c.stuck {
			return stuckSummary(c, after)
		}
		if c.shared {
			return sharedWatchSummary(c)
		}
		if onlyTakenDown(c) {
			return fmt.Sprintf("%s PyTorch watchdog found an NCCL operation that failed or timed out%s, and takes the process down.", watchdogWhoIn(c), after)
		}
		if c.follows < 0 {
			if s := watchWaitNote(c); s != "" {
				return fmt.Sprintf("%s PyTorch watchdog timed out%s", watchdogWhoIn(c), s)
			}
		}
		return fmt.Sprintf("%s PyTorch watchdog timed out%s.", watchdogWhoIn(c), after)
	case KindRASReport:
		s := "An NCCL RAS report names rank(s) " + rankList(sortedRanks(c.ranks)) + " as outliers"
		for _, it := range c.items {
			if it.Ev == evRAS && it.Name == "finding" && it.Text != "" {
				return s + ": " + short(it.Text)
			}
		}
		return s + "."
	case KindConnectionClosed:
		if s := storeSummary(c, after); s != "" {
			return s
		}
		if lost := lostPeer(c); lost != "" && c.follows < 0 {
			return fmt.Sprintf("The peer at %s went away first: %s lost its connection to it, as a follower: %s.", c.peerShown(), witnesses(c), short(lost))
		}
		if h := ownHostPeer(c); h != "" && c.follows < 0 {
			return fmt.Sprintf("Another process on %s went away first: %s of that host logged \"Connection closed by remote peer %s\", a peer on its own host (a local rank, or a proxy, that ended).",
				h, plural(len(c.procs), "process", "processes"), c.peerPrinted())
		}
		if c.follows < 0 {
			return fmt.Sprintf("A process on %s went away first: %s logged \"Connection closed by remote peer %s\".", c.peerShown(), some(len(c.procs), "process", "processes"), c.peerPrinted())
		}
		return fmt.Sprintf("%s logged \"Connection closed by remote peer %s\"%s.", some(len(c.procs), "process", "processes"), c.peerPrinted(), after)
	case KindRemoteError:
		return fmt.Sprintf("%s printed follow-on errors (ncclRemoteError, DistBackendError, service-thread WARNs)%s.", some(len(c.procs), "process", "processes"), after)
	}
	return who(c) + ": " + short(text)
}

// maxTaskRange bounds the ranks one launcher line's range adds (a hostile `tasks 0-9999999`).
const maxTaskRange = 1 << 14

// taskRange adds the tasks of a launcher line's range to rs, but first.
func taskRange(rs []int64, it *Item, first int64) []int64 {
	for r := it.Rank; r >= 0 && r <= it.RankLast && r < it.Rank+maxTaskRange; r++ {
		if r != first && !containsRank(rs, r) {
			rs = append(rs, r)
		}
	}
	return rs
}

// lastWords is the exception a process printed last, else the WARN that started its own error
// chain; "" where neither.
func lastWords(c *cand) string {
	w, warn := "", ""
	for _, it := range c.items {
		if it.Ev == evException || it.Ev == evTerminate {
			w = it.Text
			if it.Name != "" { // nccl-tests' `Test failure common.cu:893` has no exception type
				w = it.Name + ": " + it.Text
			}
		}
		if warn == "" && it.Ev.isWarn() && it.Ev != evNetWeak {
			warn = it.Text // the NCCL error its own chain started
		}
	}
	if w == "" {
		return warn
	}
	return w
}

func sortedRanks(rs []int64) []int64 {
	out := slices.Clone(rs)
	slices.Sort(out)
	return out
}

// watchdogWhoIn is watchdogWho for a watchdog finding's ranks, which are the ranks in a
// process group other than the default where every line names that one group and no
// launcher label gives the global rank: "Rank 0 of process group 12's".
func watchdogWhoIn(c *cand) string {
	group := int32(-1)
	for _, it := range c.items {
		switch {
		case it.Ev != evWatchdog:
		case !it.GroupRank || group >= 0 && it.Group != group:
			return watchdogWho(c.ranks)
		default:
			group = it.Group
		}
	}
	n := len(c.ranks)
	if group < 1 || n < 1 || n > 8 {
		return watchdogWho(c.ranks)
	}
	in := fmt.Sprintf(" of process group %d", group-1)
	if n == 1 {
		return fmt.Sprintf("Rank %d%s's", c.ranks[0], in)
	}
	return "Ranks " + rankList(sortedRanks(c.ranks)) + in + "'"
}

// watchdogWho names the ranks whose watchdogs timed out: "rank 5's", "ranks 3, 5's"; by
// count past a few, where a list would bury the sentence.
func watchdogWho(ranks []int64) string {
	switch n := len(ranks); {
	case n == 1:
		return fmt.Sprintf("Rank %d's", ranks[0])
	case n > 1 && n <= 8:
		return "Ranks " + rankList(sortedRanks(ranks)) + "'"
	default:
		return some(n, "rank's", "ranks'")
	}
}

// followOnsFinding is the finding of follow-on errors where the log shows no fault they
// follow from (an excerpt that starts after it, one process's lines of a job).
func (b *builder) followOnsFinding(rem *cand) Finding {
	s := fmt.Sprintf("%s printed follow-on errors (ncclRemoteError, DistBackendError, service-thread WARNs), but the log does not show the fault they follow from", some(len(rem.procs), "process", "processes"))
	if it := rem.items[0]; it.Text != "" {
		s += ": " + short(it.Text)
	}
	rem.summary = s
	return rem.finding()
}

// witnesses names the processes that lost their connection to c's peer: "rank 5 (node-b:4288)"
// for one whose rank the log gives, else "2 processes (node-b:4288, node-c:91)", or "a
// process" where the lines name none.
func witnesses(c *cand) string {
	if len(c.procs) == 0 {
		return "a process" // its line names none (an exception's)
	}
	if len(c.procs) == 1 && c.procs[0].rank >= 0 && c.procs[0].pid >= 0 {
		return "rank " + itoa(c.procs[0].rank) + " (" + c.procs[0].name() + ")"
	}
	return plural(len(c.procs), "process", "processes") + " (" + strings.Join(namesOf(c.procs), ", ") + ")"
}

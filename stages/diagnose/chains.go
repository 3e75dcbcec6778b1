package diagnose

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages/ncclwarn"
)

// threadKey is one thread of one process: a WARN's chain is the frames its thread prints
// after it.
type threadKey struct {
	host     string
	pid, tid int64
}

// chainCodes ties each WARN to the frames that follow it on its thread, as `nccllog info`
// folds them: codes[i] is the ncclResult of the chain that WARN i starts (its first frame),
// -1 where no frame followed it; frames[i] that first frame's position. Advice no phrase
// names a fault (ncclwarn.Advice) starts no chain: RCCL prints it on the main thread at init,
// and that thread's frames of a failure met on another thread come long after it. bare lists
// the frames no WARN shown before them starts (the WARN is outside the excerpt, or NCCL
// printed none).
func chainCodes(items []Item) (codes, frames []int, bare []int) {
	codes, frames = make([]int, len(items)), make([]int, len(items))
	last := map[threadKey]int{}     // each thread's last WARN
	started := map[threadKey]bool{} // whether that WARN's chain has begun
	for i := range items {
		it := &items[i]
		codes[i], frames[i] = -1, -1
		if it.Pid < 0 {
			continue // no process (a head cut to its device): no thread to follow
		}
		th := threadKey{it.Host, it.Pid, it.Tid}
		switch {
		case it.Ev.isWarn() && !(it.Ev == evWarn && ncclwarn.Advice([]byte(it.Text))):
			last[th], started[th] = i, false
		case it.Ev == evFrame:
			w, ok := last[th]
			switch {
			case !ok:
				bare = append(bare, i)
			case !started[th]:
				codes[w], frames[w], started[th] = int(it.Code), i, true
			}
		}
	}
	return codes, frames, bare
}

// resultKind is the kind of fault an ncclResult names, for a WARN no phrase classifies that
// starts a chain; false for ncclRemoteError (6), which blames another process.
func resultKind(code int) (Kind, bool) {
	switch code {
	case 1:
		return KindCudaError, true
	case 2:
		return KindSystemError, true
	case 4, 5:
		return KindInvalidUsage, true
	case 3:
		return KindInternalError, true
	case 6:
		return KindRemoteError, false
	}
	return KindCrash, true
}

// chainWarn files a WARN no phrase classifies: a fault origin where an error chain follows
// it (the ncclResult gives the kind), a follow-on where that result is ncclRemoteError, and
// nothing (a notice, advice) where no chain follows.
func (b *builder) chainWarn(it *Item, pos int, p *proc) {
	if proxyFollowOn(it.Text) && !connectSystemError(it) {
		if !b.connectOrigin(it, pos, p) {
			b.consequence(KindRemoteError, it, pos, p) // its chain is the abort it passes on
		}
		return
	}
	code := b.codes[pos]
	if code <= 0 {
		b.connectOrigin(it, pos, p) // a Proxy Service's Connect failure prints no chain
		return
	}
	if ibvUnloaded(it) {
		return // netwarn.go: a probe of InfiniBand on a host without its library
	}
	k, origin := resultKind(code)
	k = topoKind(netKind(k, it.Text), it.Text)
	if f := b.frames[pos]; f >= 0 && netFrame(b.e.Items[f].Name) {
		// The chain begins in the socket or InfiniBand code (a proxy's failed Connect
		// after `transport/net_ib.cc:664 -> 2`): the network failed, whatever the
		// result's name.
		k = netKind(k, "NET/")
	}
	// A process that already logged a peer closing or a follow-on passes that error on.
	if !origin || (p != nil && (b.hasConsequence(p) || b.peerClosedOn(p))) {
		b.consequence(KindRemoteError, it, pos, p)
		return
	}
	c := newCand(k, true)
	c.add(it, pos, p)
	b.addFrame(c, pos)
	if !b.foldAfterAbort(p, c, pos) {
		b.ownAdd(p, c)
	}
}

// addFrame adds the first frame of the chain WARN pos starts to c's evidence: the line that
// makes a WARN no phrase classifies a fault.
func (b *builder) addFrame(c *cand, pos int) {
	if f := b.frames[pos]; f >= 0 {
		c.add(&b.e.Items[f], f, nil)
	}
}

// foldBare files the chains whose WARN the log does not show, of the processes with no
// origin of their own. They prove no fault alone (an excerpt can start inside a chain), so
// they are filed only once another line proved one: as follow-on errors where their result is
// ncclRemoteError, else as chains without their WARN (bareChains), which follow the first
// fault only where they come after it.
func (b *builder) foldBare(first *cand) []*cand {
	var out []*cand
	for _, i := range b.bare {
		it := &b.e.Items[i]
		p := b.x.of(it)
		if p != nil && b.own[p] != nil {
			b.ownChain(b.own[p], it, i)
			continue
		}
		if p == nil || slices.Contains(first.procs, p) {
			continue
		}
		if k, origin := resultKind(int(it.Code)); !origin {
			b.consequence(k, it, i, p)
			continue
		}
		out = addBare(out, it, i, p, precedes(it, i, first))
	}
	return out
}

// joinTails gives the shared finding s the chains without their WARN that are the tail of
// the chain its processes printed (their first frame, file:line and result, is one of
// theirs): a process whose WARN is above the paste's start met the same fault. They are no
// longer bare chains.
func (b *builder) joinTails(s *cand) {
	frames := b.chainFrames(s.procs)
	kept := b.bare[:0]
	for _, i := range b.bare {
		it := &b.e.Items[i]
		if p := b.x.of(it); p != nil && b.own[p] == nil && frames[frameKey(it)] {
			s.add(it, i, p)
			continue
		}
		kept = append(kept, i)
	}
	b.bare = kept
}

// chainFrames are the frames (file:line and result) of the chains ps printed.
func (b *builder) chainFrames(ps []*proc) map[string]bool {
	out := map[string]bool{}
	for i := range b.e.Items {
		it := &b.e.Items[i]
		if it.Ev == evFrame && slices.Contains(ps, b.x.of(it)) {
			out[frameKey(it)] = true
		}
	}
	return out
}

// frameKey is a frame's file:line and result.
func frameKey(it *Item) string { return it.Name + " -> " + strconv.FormatInt(it.Code, 10) }

// ownChain gives a process's chain without its WARN to its own finding, where that is the
// line on which the process reports the same ncclResult its call returned (nccl-tests'
// `Test NCCL failure`, an NCCLCHECK's what()) and holds no chain yet: the chain's first frame
// says where in NCCL the error began (`transport/net_ib.cc:282 -> 2`).
func (b *builder) ownChain(c *cand, it *Item, pos int) {
	if len(c.items) == 0 || c.items[0].Code != it.Code {
		return
	}
	if _, _, ok := ownResultKind(c.items[0]); !ok {
		return
	}
	for _, o := range c.items {
		if o.Ev == evFrame {
			return
		}
	}
	c.add(it, pos, nil)
}

// addBare files a chain without its WARN into the finding of its place (before the first
// fault, or after it; of the kind its ncclResult names).
func addBare(out []*cand, it *Item, pos int, p *proc, early bool) []*cand {
	k, _ := resultKind(int(it.Code))
	for _, c := range out {
		if (c.follows < 0) == early && c.kind == k {
			c.add(it, pos, p)
			return out
		}
	}
	c := newCand(k, false)
	c.bare = true
	if !early {
		c.follows = 0
	}
	c.add(it, pos, p)
	return append(out, c)
}

// bareSuspects are the chains whose WARN the log does not show, where nothing proves a
// fault: one finding of each ncclResult, with the processes that printed it. A chain alone
// proves nothing (an excerpt can start inside one), but a log of them is no healthy job's:
// NCCL prints `file:line -> N` only as an error returns. A process that aborted its
// communicators is left out: an abort unwinds its sockets through such chains
// (`misc/socket.cc:47 -> 3` after `Abort COMPLETE`), as a clean shutdown by abort does.
func (b *builder) bareSuspects() []*cand {
	var out []*cand
	for _, i := range b.bare {
		it := &b.e.Items[i]
		if p := b.x.of(it); !b.aborted(p) {
			out = addBare(out, it, i, p, true)
		}
	}
	for _, c := range out {
		c.summary = bareHead(c) + ": the log does not show what started it."
	}
	return out
}

// aborted reports whether p logged an Abort COMPLETE of one of its communicators.
func (b *builder) aborted(p *proc) bool {
	if p == nil {
		return false
	}
	return slices.ContainsFunc(b.commsOf(p), func(c *commState) bool { return c.Abort != nil })
}

// precedes reports whether item it (at input position pos) came before the first fault: by
// time where both carry comparable ones, else by its place in the input.
func precedes(it *Item, pos int, first *cand) bool {
	if less, ok := timeOrder(it.Time.Stamp, first.at); ok {
		return less
	}
	return pos < first.order
}

// bareSummary says what a finding of chains without their WARN holds: the processes, the
// first chain's frame and ncclResult, and where it stands to the first fault.
func bareSummary(c *cand) string {
	s := bareHead(c)
	if c.follows >= 0 {
		return s + " after it."
	}
	return s + " before the first fault: the log does not show what started it."
}

// bareHead opens the sentence of a finding of chains without their WARN: its processes, and
// the first chain's frame and ncclResult.
func bareHead(c *cand) string {
	it := c.items[0]
	return who(c) + " printed an error chain without its WARN (" + it.Text + ", " + parser.NCCLResult(it.Code).String() + ")"
}

// firstWarn is the text of c's first WARN where c's last item, which a finding's sentence
// quotes by default, is a frame of its chain or an NCCL exception repeating it; text otherwise.
func firstWarn(c *cand, text string) string {
	if last := c.items[len(c.items)-1]; !(last.Ev == evFrame || last.Ev == evException && ncclException(last)) || last.Text != text {
		return text
	}
	for _, it := range c.items {
		if it.Ev.isWarn() {
			return it.Text
		}
	}
	return text
}

// lostPeer is the first line of c that names its peer by a failed send or receive (`Call to
// recv from <addr> failed : Broken pipe`, `Connection reset by peer`) rather than by
// `Connection closed by remote peer`, "" where none does.
func lostPeer(c *cand) string {
	for _, it := range c.items {
		if !strings.Contains(it.Text, "Connection closed by remote peer") {
			return it.Text
		}
	}
	return ""
}

// peerClosedOn reports whether p logged that a peer closed its connection.
func (b *builder) peerClosedOn(p *proc) bool {
	for _, c := range b.closed {
		if slices.Contains(c.procs, p) {
			return true
		}
	}
	return false
}

package diagnose

// A process that aborted its communicator and then calls NCCL on it gets a WARN that only
// says the communicator is gone (`misc/argcheck.cc:39 NCCL WARN AllGather : invalid root 0
// (root should be in the 0..-1 range)`: no ranks are left). Such a WARN is a consequence of
// the abort, not where the process failed: where the process named an earlier cause (an
// origin of its own, or errors it passed on), the WARN folds under it; where it named none,
// the WARN is filed as any other.

// afterAbort reports whether it is a WARN of p's printed after one of p's own Abort COMPLETE
// lines, in the same file.
func (b *builder) afterAbort(p *proc, it *Item) bool {
	if p == nil || it.Host == "" || !warnEv(it.Ev) {
		return false
	}
	for _, c := range b.commsOf(p) {
		if a := c.Abort; a != nil && a.File == it.File && a.Line < it.Line {
			return true
		}
	}
	return false
}

// warnEv reports whether ev is a kind of evidence read from an NCCL WARN.
func warnEv(ev Ev) bool {
	switch ev {
	case evWarn, evInvalid, evNetError, evCuda, evBootstrap, evSystem, evShm, evInternal:
		return true
	}
	return false
}

// foldAfterAbort files c, p's origin evidence from the WARN at pos printed after p's own abort,
// under p's earlier cause, and reports whether there was one: p's own origin (whose kind
// stays), else the follow-on errors p passed on.
func (b *builder) foldAfterAbort(p *proc, c *cand, pos int) bool {
	if len(c.items) == 0 || !b.afterAbort(p, c.items[0]) {
		return false
	}
	if o := b.own[p]; o != nil {
		k := o.kind
		o.absorb(c)
		o.kind = k
		return true
	}
	if b.hasConsequence(p) || b.peerClosedOn(p) {
		b.consequence(KindRemoteError, c.items[0], pos, p) // as chainWarn files a WARN passed on
		return true
	}
	return false
}

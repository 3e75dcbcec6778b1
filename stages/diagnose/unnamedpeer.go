package diagnose

import (
	"fmt"
	"slices"
)

// A process's NCCL WARN that its connection to a peer was reset or closed, naming no peer,
//
//	include/socket.h 398 NCCL WARN Call to write failed : Connection reset by peer.
//	misc/socket.cc:50 NCCL WARN socketProgress: Connection reset by peer
//	proxy.cc:1546 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=6, closing connection
//
// follows a fault elsewhere: the peer went away, or the network dropped the connection. It is
// filed as a follow-on, under whatever origin the log shows. Where the log shows none (no
// origin, no peer named, no watchdog, no launcher's word), it is still no healthy job's line:
// the processes that lost a peer come first, a connection-closed of a peer not named.

// lostUnnamed takes those WARNs out of the follow-on errors as one finding; nil where there
// are none.
func (b *builder) lostUnnamed() *cand {
	rem := b.conseq[KindRemoteError]
	if rem == nil {
		return nil
	}
	c := newCand(KindConnectionClosed, true)
	var kept []*Item
	for _, it := range rem.items {
		if it.Ev == evRemoteClosed || it.Ev == evFollowOn {
			c.add(it, b.posOf(it), b.x.of(it))
			continue
		}
		kept = append(kept, it)
	}
	if len(c.items) == 0 {
		return nil
	}
	if rem.items = kept; len(kept) == 0 {
		delete(b.conseq, KindRemoteError)
	}
	c.summary = lostUnnamedSummary(c)
	return c
}

// lostBefore reports whether a process lost a connection to a peer the log does not name
// before w's first line: what the watchdog then took its process down for.
func (b *builder) lostBefore(w *cand) bool {
	rem := b.conseq[KindRemoteError]
	if rem == nil {
		return false
	}
	// The items were filed in the input's order: the first such one is the earliest.
	i := slices.IndexFunc(rem.items, func(it *Item) bool { return it.Ev == evRemoteClosed || it.Ev == evFollowOn })
	return i >= 0 && b.posOf(rem.items[i]) < w.order
}

// lostUnnamedSummary is the sentence of lostUnnamed's finding.
func lostUnnamedSummary(c *cand) string {
	s := who(c) + " lost its connection to a peer first"
	if len(c.procs) > 1 {
		s = fmt.Sprintf("%d processes lost their connections to peers first", len(c.procs))
	} else if len(c.procs) == 0 {
		s = "A process lost its connection to a peer first"
	}
	return s + " (\"" + short(c.items[0].Text) + "\"): the peer went away or the network dropped the connection; the log does not show which peer, nor what happened to it."
}

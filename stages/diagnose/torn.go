package diagnose

import (
	"slices"
	"strings"
)

// A process group that is destroyed aborts its communicators with the reason `Process Group
// destroyed on rank 1` (PyTorch's ~ProcessGroupNCCL), and the NCCL work still pending then
// raises `NCCL communicator was aborted on rank 1. Original reason for failure was: Process
// Group destroyed on rank 1`. The process was ending (it exited with work in flight, or tore
// down after an error of its own): a consequence of whatever ended it. Where the log shows
// nothing else wrong, it is still the first sign of a fault, with its cause not in the log.

// pgDestroyed is that abort reason.
const pgDestroyed = "Process Group destroyed on rank "

// tornDown reports whether it is an exception raised by work its process group's destruction
// aborted.
func tornDown(it *Item) bool {
	return (it.Ev == evException || it.Ev == evTerminate) && strings.Contains(it.Text, pgDestroyed)
}

// addTorn files such an exception as a follow-on, kept aside for tornOrigin.
func (b *builder) addTorn(it *Item, pos int, p *proc) {
	b.consequence(KindRemoteError, it, pos, p)
	b.torn = append(b.torn, excRef{it, pos, p})
}

// tornOrigin makes the first process torn down with work pending the first fault where
// nothing else is one: no origin, no launcher's word, no watchdog or heartbeat line, no peer
// closing, no verdict of the ranks family.
func (b *builder) tornOrigin(lp *proc) {
	if len(b.torn) == 0 || lp != nil || len(b.owners) > 0 || len(b.loose) > 0 || b.watch != nil ||
		b.stuck != nil || len(b.closed) > 0 || len(b.extra) > 0 {
		return
	}
	r := b.torn[0]
	c := newCand(KindCrash, true)
	c.add(r.it, r.pos, r.p)
	name := who(c)
	if n, ok := tornRank(r.it.Text); ok && len(c.procs) == 0 {
		c.ranks, name = append(c.ranks, n), "rank "+itoa(n)
	}
	c.summary = name + " ended with NCCL work pending: its process group was destroyed (\"" + pgDestroyed +
		"...\"), as when a process exits or tears down after an error; what ended it is not in the log."
	if rem := b.conseq[KindRemoteError]; rem != nil {
		rem.items = slices.DeleteFunc(rem.items, func(it *Item) bool { return it == r.it })
		if len(rem.items) == 0 {
			delete(b.conseq, KindRemoteError)
		}
	}
	b.ownAdd(r.p, c)
}

// tornRank is the rank the abort reason names.
func tornRank(text string) (int64, bool) {
	i := strings.Index(text, pgDestroyed)
	if i < 0 {
		return 0, false
	}
	r, n := decimalAt(text[i+len(pgDestroyed):])
	return r, n > 0
}

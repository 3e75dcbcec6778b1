package diagnose

import (
	"strings"
)

// A process group gets each NCCL communicator's unique id from the rank that made it (the
// group's rank 0) through the c10d store, and a rank whose wait fails says from whom:
//
//	torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer
//
// (or `Socket Timeout`, `wait timeout after 600000ms`). The rank it names never put the id
// there: it went away (the store on its host closed), or never got that far. The line is the
// waiting rank's follow-on of that rank's fault, filed as a peer that went away.

// storeGetHead opens the rank the id was to come from.
const storeGetHead = "retrieving ncclUniqueId from ["

// storeGetTail follows that rank.
const storeGetTail = "] via c10d key-value store"

// storeSource is the rank a failed store wait names and the error it got; false where text
// is no such wait.
func storeSource(text string) (rank int64, why string, ok bool) {
	i := strings.Index(text, storeGetHead)
	if i < 0 {
		return 0, "", false
	}
	rest := text[i+len(storeGetHead):]
	r, n := decimalAt(rest)
	if n == 0 || !strings.HasPrefix(rest[n:], storeGetTail) {
		return 0, "", false
	}
	if k := strings.Index(rest, "got error: "); k >= 0 {
		why = strings.TrimSpace(rest[k+len("got error: "):])
	}
	return r, why, true
}

// storeWait files a failed wait for a communicator's unique id under the rank it names, as
// a peer that went away: keyed by that rank's host where the log places it, so that it folds
// under that host's own fault.
func (b *builder) storeWait(it *Item, pos int, p *proc, rank int64) {
	q := b.x.byRank[rank]
	key := "rank " + itoa(rank)
	if q != nil && q.host != "" {
		key = q.host
	}
	c := b.closedPeer(key)
	if c.storeRank < 0 {
		c.storeRank, c.storeProc = rank, q
	}
	c.add(it, pos, p)
}

// storeSummary is the sentence of a peer that went away where the evidence is failed store
// waits for the unique id it was to make; "" where c holds none.
func storeSummary(c *cand, after string) string {
	if c.storeRank < 0 {
		return ""
	}
	who := "rank " + itoa(c.storeRank)
	if q := c.storeProc; q != nil && q.pid >= 0 {
		who += " (" + q.name() + ")"
	}
	why := ""
	for _, it := range c.items {
		if _, w, ok := storeSource(it.Text); ok && w != "" {
			why = " (" + short(w) + ")"
			break
		}
	}
	waiters := "a process"
	if len(c.procs) > 0 {
		waiters = plural(len(c.procs), "process", "processes")
	}
	if after != "" {
		return strings.ToUpper(waiters[:1]) + waiters[1:] + " could not get the NCCL unique id " + who + " was to make through the c10d store" + why + after + "."
	}
	return who + " went away first, or never made its communicator: " + waiters + " could not get the NCCL unique id it was to make through the c10d store" + why + "."
}

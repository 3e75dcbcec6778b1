package diagnose

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// Each process's proxy service thread takes connections from the local ranks of its host
// (src/proxy.cc). A rank that ends its communicators tells the proxies so first
// (ncclProxyMsgClose); a socket that closes without that message, from a process that went
// away (or one that aborted), makes each proxy it used print `[Service thread] Connection
// closed by localRank N` (INFO). Where every process of a host that prints one names the
// same local rank, and they are several, that rank's process went away while the others
// still ran: a healthy teardown by abort has each proxy name every local rank that closed.

// localClosedHead opens the proxy service thread's INFO on a local rank's closed connection.
const localClosedHead = "[Service thread] Connection closed by localRank "

// minLocalWitnesses is the fewest processes of a host that must name the one local rank:
// two could be the first to abort in a healthy teardown and an excerpt cut just after it.
const minLocalWitnesses = 3

// addLocalClosed keeps an INFO line whose message msg is the proxy service's closed
// connection, with its local rank in Local. It reports whether msg was one.
func (p *Part) addLocalClosed(n int64, msg []byte, l *parser.Line) bool {
	rest, ok := bytes.CutPrefix(msg, []byte(localClosedHead))
	if !ok {
		return false
	}
	if i := bytes.IndexAny(rest, " \r"); i >= 0 {
		rest = rest[:i] // a Ray repeat's tail, a CR
	}
	r, ok := leadingInt(rest) // evidence.go: a local rank has at most 4 digits
	if !ok || len(rest) > 4 || len(bytes.TrimLeft(rest, "0123456789")) > 0 {
		return false
	}
	it := newItem(evLocalClosed, n, l)
	it.Local, it.Text = r, clip(msg)
	p.keep(it)
	return true
}

// localGone is the finding of a local rank whose closed connections several processes of its
// host logged, where they name no other: nil where the lines name several local ranks (or
// hosts), or fewer than minLocalWitnesses processes name it.
func (b *builder) localGone() *cand {
	var first *Item
	var pids []int64
	for _, i := range b.localClosed {
		it := &b.e.Items[i]
		if it.Pid < 0 {
			return nil // a process the line does not name may be the rank itself
		}
		if first == nil {
			first = it
		} else if it.Host != first.Host || it.Local != first.Local {
			return nil
		}
		if !slices.Contains(pids, it.Pid) {
			pids = append(pids, it.Pid)
		}
	}
	if len(pids) < minLocalWitnesses {
		return nil
	}
	c := newCand(KindConnectionClosed, true)
	c.peer, c.localGone = first.Host, first.Local+1
	for _, i := range b.localClosed {
		c.add(&b.e.Items[i], i, nil) // the witnesses are not the finding's processes
	}
	c.summary = localGoneSummary(c, len(pids))
	return c
}

// localGoneSummary is the sentence of localGone's finding, which n processes witnessed.
func localGoneSummary(c *cand, n int) string {
	return fmt.Sprintf("Local rank %d on %s went away first: %d other processes of that host logged its connection to their proxy closing without a word (\"%s\"), and no other local rank's.",
		c.localGone-1, c.peer, n, strings.TrimSpace(c.items[0].Text))
}

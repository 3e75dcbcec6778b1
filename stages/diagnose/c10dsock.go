package diagnose

import (
	"bytes"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/stages"
)

// PyTorch's rendezvous goes through the c10d store, a TCP server on the master (rank 0's
// host, MASTER_ADDR:MASTER_PORT) that every process connects to before NCCL starts. Two of
// its socket errors end the job there, each logged by glog and raised as DistNetworkError:
//
//	[E socket.cpp:922] [c10d] The client socket has timed out after 1800s while trying to connect to (172.17.0.2, 44737).
//	[E socket.cpp:472] [c10d] The server socket has failed to listen on any local network address.
//	torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use). ...
//
// The first is a process that never reached the store (an address not routable from its
// host, a port a firewall drops, a master that never started); the second a master that
// could not open the port (another job or a leftover process holds it). Either is the
// process's own failure to join, not another's echo, unlike the DistNetworkError of a
// store connection a peer reset. The warnings printed while it retries (`[W socket.cpp]
// ... failed to connect ... Connection refused`, one address family's failed bind) are
// not read: healthy jobs print them.

const (
	c10dClientTimeout = "The client socket has timed out after "
	c10dNoListen      = "The server socket has failed to listen on any local network address"
)

// c10dName names the item of a store socket's ERROR line.
const c10dName = "c10d"

// c10dAt is where the store socket's failure starts in t, -1 where t holds neither.
func c10dAt[T ~string | ~[]byte](t T) int {
	i := bytes.Index([]byte(t), []byte(c10dClientTimeout))
	if i < 0 {
		i = bytes.Index([]byte(t), []byte(c10dNoListen))
	}
	return i
}

// c10dFailed reports whether text is one of the store socket's two failures.
func c10dFailed(text string) bool { return c10dAt(text) >= 0 }

// addC10dSocket keeps glog's ERROR line of either failure; it reports whether l was one.
func (p *Part) addC10dSocket(l *stages.Line) bool {
	t := l.Text
	i := c10dAt(t)
	if i < 0 || !bytes.Contains(t[:i], []byte("socket.cpp")) {
		return false
	}
	it := newItem(evException, l.N, l.P)
	it.Name = c10dName
	it.Text = clip(t[i:])
	p.keep(it)
	return true
}

// c10dSummary is the sentence of a finding whose text is a store socket's failure, "" where
// it is none. It quotes the exception's message where the finding has it: past glog's line,
// it names the address and the errno of each bind that failed.
func c10dSummary(c *cand, text string) string {
	if !c10dFailed(text) {
		return ""
	}
	for _, it := range c.items {
		if c10dFailed(it.Text) && len(it.Text) > len(text) {
			text = it.Text
		}
	}
	text = strings.TrimPrefix(text, c10dName+": ")
	if strings.Contains(text, c10dClientTimeout) {
		return who(c) + " could not reach the rendezvous store (c10d) first: " + short(text) +
			" (the master's address or port is not reachable from this host, or the master never started)"
	}
	s := who(c) + " could not open the rendezvous port (c10d) first: " + short(text)
	if strings.Contains(text, "Address already in use") {
		s += " (another job or a leftover process holds the port: free it, or set another MASTER_PORT)"
	}
	return s
}

// c10dLoose is the finding among loose (evidence of no named process) that c repeats, where
// both are the store socket's failure of the same words (glog's line, then the exception
// that carries it): one process's failure to join, told twice. nil where there is none.
func c10dLoose(loose []*cand, c *cand) *cand {
	if len(c.items) != 1 || !c10dFailed(c.items[0].Text) {
		return nil
	}
	head := c10dHead(c.items[0].Text)
	for _, o := range loose {
		if len(o.procs) == 0 && slices.ContainsFunc(o.items, func(it *Item) bool { return c10dHead(it.Text) == head }) {
			return o
		}
	}
	return nil
}

// c10dHead is the store failure's sentence in text: from its words to the first period.
func c10dHead(text string) string {
	i := c10dAt(text)
	if i < 0 {
		return ""
	}
	t := text[i:]
	if j := strings.Index(t, ". "); j >= 0 {
		t = t[:j]
	}
	return strings.TrimSuffix(t, ".")
}

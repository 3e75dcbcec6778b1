package diagnose

import (
	"slices"
	"strings"
)

// The proxy's service thread reports a failed operation with its ncclResult (src/proxy.cc):
//
//	proxy.cc:1485 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=2, closing connection
//	proxy.cc:1519 NCCL WARN [Proxy Service 11] Failed to execute operation Connect from rank 11, retcode 2
//
// Mostly it passes on an error met elsewhere (res=3 internal, res=6 a remote peer's), a
// follow-on. But a Connect that failed with ncclSystemError (2), after the process's own
// chain from its socket calls (`misc/socket.cc:567 -> 2`, `transport/net_socket.cc:336 -> 2`)
// printed with no WARN, is the process's own connect failing: its network error, an origin.

// connectSystemError reports whether it is a service-thread WARN of a Connect that failed
// with ncclSystemError.
func connectSystemError(it *Item) bool {
	t := it.Text
	switch {
	case strings.HasPrefix(t, "[Service thread] Error encountered progressing operation=Connect,"):
		return it.Code == 2
	case strings.HasPrefix(t, "[Proxy Service ") && strings.Contains(t, "] Failed to execute operation Connect "):
		i := strings.LastIndex(t, " retcode ")
		if i < 0 {
			return false
		}
		code, ok := leadingInt([]byte(t[i+len(" retcode "):]))
		return ok && code == 2
	}
	return false
}

// proxyFollowOn reports whether msg is the proxy's service thread passing on an error met
// elsewhere: a request it failed (`[Proxy Service 9] Failed to execute operation Connect from
// rank 15, retcode 3`), or a local rank's connection to it that broke (`[Service thread]
// Could not receive type from localRank 7, res=3, closed=0`). The chain its thread prints
// after it (`socketProgressOpt: abort called`, `misc/socket.cc:805 -> 3`) is the abort it
// passes on, not a fault of its own; a Connect that failed with ncclSystemError is one
// (connectSystemError).
func proxyFollowOn(msg string) bool {
	return strings.HasPrefix(msg, "[Proxy Service ") && strings.Contains(msg, "] Failed to execute operation ") ||
		strings.HasPrefix(msg, "[Service thread] Could not receive type from localRank ")
}

// ownSocketChain is the first frame p printed before pos of a chain with no WARN shown,
// in its socket or InfiniBand calls with ncclSystemError; -1 where none.
func (b *builder) ownSocketChain(p *proc, pos int) int {
	if p == nil {
		return -1
	}
	for _, i := range b.bare {
		if i >= pos {
			break
		}
		f := &b.e.Items[i]
		if f.Code == 2 && netFrame(f.Name) && b.x.of(f) == p {
			return i
		}
	}
	return -1
}

// netFrame reports whether a frame's `file:line` is in NCCL's socket or InfiniBand code
// (`transport/net_ib.cc:664`, 2.23+'s `transport/net_ib/connect.cc:...`, the verbs wrappers).
func netFrame(where string) bool {
	for _, f := range []string{"misc/socket.cc:", "transport/net_socket.cc:", "transport/net_ib", "misc/ibvwrap.cc:"} {
		if strings.HasPrefix(where, f) {
			return true
		}
	}
	return false
}

// connectOrigin files a service-thread Connect failure with ncclSystemError after p's own
// socket chain as p's network error, with the chain's first frame, and reports whether it
// did.
func (b *builder) connectOrigin(it *Item, pos int, p *proc) bool {
	if !connectSystemError(it) {
		return false
	}
	f := b.ownSocketChain(p, pos)
	if f < 0 {
		return false
	}
	q := *it
	q.Ev = evNetError // its sentence quotes the first of them, as a network WARN's
	c := newCand(KindNetworkError, true)
	if o := b.own[p]; o == nil || !slices.Contains(o.items, &b.e.Items[f]) {
		c.add(&b.e.Items[f], f, p)
	}
	c.add(&q, pos, p)
	b.ownAdd(p, c)
	return true
}

package diagnose

import (
	"path"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// NCCL has paths that fail without a WARN (a bootstrap connect in 2.18 among them): the log
// then holds only the return-code chain, `misc/socket.cc:564 -> 2` up to `group.cc:106 -> 2`
// on the thread that called NCCL. A chain without its WARN proves nothing alone where an
// excerpt may start inside it, but one that reaches NCCL's API (apiFiles) on the
// process's own main thread (tid = pid) is a call that returned the error to the program.
// Where the log shows no other fault, that is the finding: the process's call failed. So is
// a chain that reaches group.cc on the thread of an asynchronous init (`group.cc:72 -> 3
// [Async thread]`: the job's error is what the program's call returns), and a chain of
// ncclSystemError in the network transport's set-up of a connection on any thread
// (`include/net.h:25 -> 2`, `transport/net.cc:515 -> 2` on a proxy thread: NCCL gives up a
// connection that failed).

// apiFiles are NCCL's sources whose frames are its API's returns: group.cc and init.cc, and
// the sources of a collective's call on the caller's thread, collectives.cc and enqueue.cc
// (ncclEnqueueCheck, and the launch group.cc's ncclGroupEnd runs there: `enqueue.cc:2432 -> 1`
// on the main thread, before the program's traceback, is its call's unhandled CUDA error).
var apiFiles = map[string]bool{"group.cc": true, "init.cc": true, "collectives.cc": true, "enqueue.cc": true}

// apiChain is the finding of the first process whose chain without a WARN returns an origin's
// ncclResult through NCCL's API on its main thread, with that process's chain as evidence;
// nil where no chain does.
func (b *builder) apiChain() *cand {
	for _, i := range b.bare {
		it := &b.e.Items[i]
		k, origin := resultKind(int(it.Code))
		p := b.x.of(it)
		if !origin || p == nil || !failedCall(it) {
			continue
		}
		c := newCand(k, true) // the call's error is the program's: a fault
		for _, j := range b.bare {
			if f := &b.e.Items[j]; b.x.of(f) == p {
				c.add(f, j, p)
				if f.Code == 2 && netChainFrame(f.Name) {
					c.kind = KindNetworkError // the chain begins in the network's code
				}
			}
		}
		c.summary = apiSummary(c, it)
		return c
	}
	return nil
}

// apiFrame reports whether a frame's place (`group.cc:106`, with or without the source's
// path) is in one of NCCL's API sources.
func apiFrame(where string) bool {
	file, _, _ := strings.Cut(path.Base(where), ":")
	return apiFiles[file]
}

// failedCall reports whether frame it shows an error reaching the program: a return through
// NCCL's API on the process's main thread or from an asynchronous init's job, or a network
// transport's system error.
func failedCall(it *Item) bool {
	switch {
	case apiFrame(it.Name):
		// group.cc's asynchronous job prints its result with `[Async thread]`.
		return it.Tid == it.Pid || strings.HasPrefix(path.Base(it.Name), "group.cc:") && strings.HasSuffix(it.Text, "[Async thread]")
	case it.Code == 2:
		return netTransportFrame(it.Name)
	}
	return false
}

// netTransportFrame reports whether a frame's place is the network transport's set-up of a
// connection and its calls into the network plugin (`transport/net.cc`, `include/net.h`),
// which NCCL gives up on a failure; a probe of the network at init (`transport/net_ib.cc`
// alone) may fail and fall back.
func netTransportFrame(where string) bool {
	return strings.HasPrefix(where, "include/net.h:") || strings.HasPrefix(where, "transport/net.cc:")
}

// netChainFrame reports whether a frame's place is in NCCL's network code: its socket and
// InfiniBand code (netFrame) or the network transport.
func netChainFrame(where string) bool { return netFrame(where) || netTransportFrame(where) }

// apiSummary says that c's process's call returned an error with no WARN, where its chain
// began and which ncclResult it returned.
func apiSummary(c *cand, api *Item) string {
	// The chain is the frames of the call's result; the process's other chains (a proxy
	// thread's, of another result) stay evidence.
	same := slices.DeleteFunc(slices.Clone(c.items), func(it *Item) bool { return it.Code != api.Code })
	first, last := same[0], same[len(same)-1]
	if c.kind == KindNetworkError && !apiFrame(last.Name) {
		return who(c) + "'s network connection failed first: its chain returned " + parser.NCCLResult(api.Code).String() +
			" (" + last.Name + ") with no WARN; it begins at " + first.Name + "."
	}
	return who(c) + "'s NCCL call failed first: it returned " + parser.NCCLResult(api.Code).String() +
		" (" + last.Name + ") with no WARN; its chain begins at " + first.Name + "."
}

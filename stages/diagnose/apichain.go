package diagnose

import (
	"path"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// NCCL has paths that fail without a WARN (a bootstrap connect in 2.18 among them): the log
// then holds only the return-code chain, `misc/socket.cc:564 -> 2` up to `group.cc:106 -> 2`
// on the thread that called NCCL. A chain without its WARN proves nothing alone where an
// excerpt may start inside it, but one that reaches NCCL's API (group.cc, init.cc) on the
// process's own main thread (tid = pid) is a call that returned the error to the program.
// Where the log shows no other fault, that is the finding: the process's call failed.

// apiFiles are NCCL's sources whose frames are its API's returns.
var apiFiles = map[string]bool{"group.cc": true, "init.cc": true}

// apiChain is the finding of the first process whose chain without a WARN returns an origin's
// ncclResult through NCCL's API on its main thread, with that process's chain as evidence;
// nil where no chain does.
func (b *builder) apiChain() *cand {
	for _, i := range b.bare {
		it := &b.e.Items[i]
		k, origin := resultKind(int(it.Code))
		p := b.x.of(it)
		if !origin || p == nil || it.Tid != it.Pid || !apiFrame(it.Name) {
			continue
		}
		c := newCand(k, true) // the call's error is the program's: a fault
		for _, j := range b.bare {
			if b.x.of(&b.e.Items[j]) == p {
				c.add(&b.e.Items[j], j, p)
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

// apiSummary says that c's process's call returned an error with no WARN, where its chain
// began and which ncclResult it returned.
func apiSummary(c *cand, api *Item) string {
	first := c.items[0]
	return who(c) + "'s NCCL call failed first: it returned " + parser.NCCLResult(api.Code).String() +
		" (" + api.Name + ") with no WARN; its chain begins at " + first.Name + "."
}

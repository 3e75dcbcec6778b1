package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// sharedChain makes one shared finding where the processes with an origin of their own all
// met the same one (as sharedCause asks) and every other process that shows evidence shows
// only error chains whose WARN the log does not hold, returning the same ncclResult as the
// origins' chains, one a process meets only by its own call: a CUDA error (1), an invalid
// argument or usage (4, 5), from a frame below NCCL's API (where it met it). Every process failed its own call the same way (an excerpt that
// holds one's WARN: eight ranks whose NVLS set-up fails on CUDA), not one bad process. Where
// some process shows anything else, or a chain of another result (a system or remote error
// is what a process meets on a peer's account), the origins stay apart. It reports whether
// it made the shared finding.
func (b *builder) sharedChain(lp *proc) bool {
	if len(b.owners) == 0 || len(b.bare) == 0 || !b.mayShare(lp) {
		return false
	}
	code, ok := b.ownersCode()
	if !ok {
		return false
	}
	var procs []*proc
	var frames []int
	deep := map[*proc]bool{}
	for _, i := range b.bare {
		it := &b.e.Items[i]
		p := b.x.of(it)
		if p == nil || b.own[p] != nil {
			continue
		}
		if it.Code != code {
			return false
		}
		if !slices.Contains(procs, p) {
			procs, frames = append(procs, p), append(frames, i)
		}
		deep[p] = deep[p] || !apiFrame(it.Name)
	}
	if len(procs) == 0 || b.othersShow(lp) {
		return false
	}
	for _, p := range procs {
		if !deep[p] {
			// Only NCCL's API frames (`init.cc:1730 -> 1`): the log shows the process's call
			// returned that result, not where it met it; the process whose WARN it shows
			// stays the one that failed first.
			return false
		}
	}
	s := b.takeOwners()
	for j, p := range procs {
		s.add(&b.e.Items[frames[j]], frames[j], p)
	}
	b.bare = nil
	s.summary = sharedChainSummary(s, code)
	b.loose = append(b.loose, s)
	return true
}

// ownersCode is the ncclResult every owner's chain returns, where they share one origin
// (causeKey) and that result is one a process meets only by its own call.
func (b *builder) ownersCode() (int64, bool) {
	if !b.oneCause() {
		return 0, false
	}
	code := int64(-1)
	for _, p := range b.owners {
		for _, it := range b.own[p].items {
			if !it.Ev.isWarn() {
				continue
			}
			pos := b.posOf(it)
			if pos < 0 || b.frames[pos] < 0 || (code >= 0 && b.e.Items[b.frames[pos]].Code != code) {
				return 0, false
			}
			code = b.e.Items[b.frames[pos]].Code
			break
		}
	}
	return code, code == 1 || code == 4 || code == 5
}

// sharedChainSummary says how many processes failed, the origin's WARN and the result the
// others' chains return.
func sharedChainSummary(c *cand, code int64) string {
	return fmt.Sprintf("Every process that logged an error (%s, on %s) failed its own call the same way: %s (the WARN the log holds; the others' error chains return the same %s); %s",
		plural(len(c.procs), "process", "processes"), strings.Join(hostsOf(c.procs), ", "), short(firstWarnText(c)), parser.NCCLResult(code), sharedTail(c.kind))
}

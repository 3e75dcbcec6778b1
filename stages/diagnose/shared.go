package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/stages/ncclwarn"
)

// sharedCause makes one shared finding where every process that shows evidence met the same
// origin (the same kind, and WARNs of one template: the same IB completion status, the same
// failed call) and no process logged anything else: a cause they share (the fabric, a
// setting), not the first of them in log order. Where the launcher names a process the log
// places (by host and pid, or on a host none of them is on), where a process shows other
// evidence (a peer closing, a follow-on, an abort alone), or where the ranks' calls or a RAS
// report name a fault, the origins stay apart and are ordered as ever. It reports whether it
// made the shared finding.
func (b *builder) sharedCause(lp *proc) bool {
	if len(b.owners) < 2 || !b.mayShare(lp) {
		return false
	}
	if !b.oneCause() || b.othersShow(lp) {
		return false
	}
	s := b.takeOwners()
	b.joinTails(s)
	s.summary = sharedSummary(s)
	b.loose = append(b.loose, s)
	return true
}

// mayShare reports whether the evidence leaves room for a shared finding: the launcher's first
// process lp (nil: none) may be one of the owners, and no finding stands apart from them (an
// origin naming no process, the ranks' calls, a RAS report).
func (b *builder) mayShare(lp *proc) bool {
	return (lp == nil || b.mayBeOwner(lp)) && len(b.loose) == 0 && len(b.extra) == 0 && b.ras == nil
}

// oneCause reports whether every process with an origin of its own met the same one (the
// same kind, and a WARN of one template) and it proves a fault.
func (b *builder) oneCause() bool {
	key := ""
	for i, p := range b.owners {
		c := b.own[p]
		k := causeKey(c)
		if c == nil || !c.fault || k == "" || (i > 0 && k != key) {
			return false
		}
		key = k
	}
	return len(b.owners) > 0
}

// takeOwners makes one shared finding of the processes with an origin of their own, which
// it takes out of own and owners.
func (b *builder) takeOwners() *cand {
	s := newCand(b.own[b.owners[0]].kind, true)
	s.shared = true
	for _, p := range b.owners {
		s.absorb(b.own[p])
		delete(b.own, p)
	}
	b.owners = nil
	return s
}

// mayBeOwner reports whether the launcher's first process lp may be any of the processes
// with an origin of their own: the launcher names it by rank alone, which no line of the log
// ties to a process (Open MPI's `[[job,1],10]` where every rank failed in bootstrap before
// printing its rank), or by a host that every one of them is on. Its exit then follows from
// the cause they share; it does not name another.
func (b *builder) mayBeOwner(lp *proc) bool {
	if b.own[lp] != nil {
		return true // it is one of them
	}
	if lp.pid >= 0 {
		return false
	}
	return lp.host == "" || !slices.ContainsFunc(b.owners, func(p *proc) bool { return p.host != lp.host })
}

// causeKey is what makes two processes' origins one cause: the kind and the template of the
// first WARN, or of nccl-tests' result line (`Test NCCL failure common.cu:1005 'unhandled cuda
// error ...'`, each process's word on the same call failing); "" where the origin is neither.
func causeKey(c *cand) string {
	if c == nil {
		return ""
	}
	for _, it := range c.items {
		if it.Ev.isWarn() || isTestResult(it) {
			return c.kind.String() + "\x00" + ncclwarn.Template([]byte(it.Text))
		}
	}
	return ""
}

// othersShow reports whether a process with no origin of its own shows evidence: a follow-on,
// a peer closing, a watchdog timeout. The launcher's first process lp (nil: none), which may
// be any of those with one (mayBeOwner), does not count.
func (b *builder) othersShow(lp *proc) bool {
	other := func(c *cand) bool {
		return c != nil && slices.ContainsFunc(c.procs, func(p *proc) bool { return b.own[p] == nil && p != lp })
	}
	for _, c := range b.conseq {
		if other(c) {
			return true
		}
	}
	for _, c := range b.closed {
		if other(c) {
			return true
		}
	}
	return other(b.watch)
}

func sharedSummary(c *cand) string {
	if s := portDownSummary(c, ""); s != "" {
		return s // one host's link: its processes share the port (portdown.go)
	}
	where := plural(len(c.procs), "process", "processes")
	if hosts := hostsOf(c.procs); len(hosts) > 0 {
		where += ", on " + strings.Join(hosts, ", ") // lines whose head has no host name none
	}
	return fmt.Sprintf("Every process that logged an error (%s) met the same %s first: %s; %s",
		where, strings.ReplaceAll(c.kind.String(), "-", " "), short(causeText(c)), sharedTail(c.kind))
}

// causeText is the text of the line causeKey reads: c's first WARN or nccl-tests result.
func causeText(c *cand) string {
	for _, it := range c.items {
		if it.Ev.isWarn() || isTestResult(it) {
			return it.Text
		}
	}
	return ""
}

// firstWarnText is the text of c's first WARN, "" where it holds none.
func firstWarnText(c *cand) string {
	for _, it := range c.items {
		if it.Ev.isWarn() {
			return it.Text
		}
	}
	return ""
}

// sharedTail says what a cause every process met is, by its kind.
func sharedTail(k Kind) string {
	if k == KindMismatch {
		// Each rank whose device saw a peer issue another collective says so: the calls
		// differ across ranks, which no one process's state explains.
		return "the ranks issued different collectives (check the calls at and around the ranks these lines name), not one bad process."
	}
	if k == KindCudaError || k == KindOOM {
		// A device error every process met (a device-side assert, a misaligned address, no
		// memory) is most often the program they all run, with the data it is given.
		return "a cause they share (the code they all run, its data, or a driver or library common to them), not one bad process."
	}
	return "a cause they share (the fabric, a setting or a library common to them), not one bad process."
}

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
// setting), not the first of them in log order. Where the launcher names a process, where a
// process shows other evidence (a peer closing, a follow-on, an abort alone), or where the
// ranks' calls or a RAS report name a fault, the origins stay apart and are ordered as ever.
func (b *builder) sharedCause(lp *proc) {
	if lp != nil || len(b.owners) < 2 || len(b.loose) > 0 || len(b.extra) > 0 || b.ras != nil {
		return
	}
	key := ""
	for i, p := range b.owners {
		c := b.own[p]
		k := causeKey(c)
		if c == nil || !c.fault || k == "" || (i > 0 && k != key) {
			return
		}
		key = k
	}
	if b.othersShow() {
		return
	}
	s := newCand(b.own[b.owners[0]].kind, true)
	s.shared = true
	for _, p := range b.owners {
		s.absorb(b.own[p])
		delete(b.own, p)
	}
	b.owners = nil
	s.summary = sharedSummary(s)
	b.loose = append(b.loose, s)
}

// causeKey is what makes two processes' origins one cause: the kind and the template of the
// first WARN; "" where the origin is no WARN.
func causeKey(c *cand) string {
	if c == nil {
		return ""
	}
	for _, it := range c.items {
		if it.Ev.isWarn() {
			return c.kind.String() + "\x00" + ncclwarn.Template([]byte(it.Text))
		}
	}
	return ""
}

// othersShow reports whether a process with no origin of its own shows evidence: a follow-on,
// a peer closing, a watchdog timeout.
func (b *builder) othersShow() bool {
	other := func(c *cand) bool {
		return c != nil && slices.ContainsFunc(c.procs, func(p *proc) bool { return b.own[p] == nil })
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
	text := ""
	for _, it := range c.items {
		if it.Ev.isWarn() {
			text = it.Text
			break
		}
	}
	return fmt.Sprintf("Every process that logged an error (%s, on %s) met the same %s first: %s; a cause they share (the fabric, a setting or a library common to them), not one bad process.",
		plural(len(c.procs), "process", "processes"), strings.Join(hostsOf(c.procs), ", "), strings.ReplaceAll(c.kind.String(), "-", " "), short(text))
}

package info

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// chainState folds the `file:line -> result` lines that follow a WARN on its thread into one
// error chain, and the chains into root causes.
type chainState struct {
	// open is each thread's last chain: its WARN and the frames so far.
	open map[threadKey]*errChain
	// lead is the frames of threads that printed no WARN in this Info before them: on Merge
	// they continue the chain the thread left open in the lines before.
	lead   map[threadKey]*errChain
	groups map[chainKey]*chainGroup
	order  []chainKey
}

type errChain struct {
	warn   string // the WARN's template, "" when no WARN came before the frames
	warnEv Evidence
	root   parser.Frame // the first frame: where the error started
	rootEv Evidence
	frames int64
	last   parser.Frame
}

// chainKey is a root cause: the WARN, where the error started and what it returned.
type chainKey struct {
	Warn   string
	Where  string
	Result int64
}

type chainGroup struct {
	n, frames int64
	ev        Evidence
	procs     map[procID]struct{}
	last      string // the outermost frame of the first chain
}

const maxChainGroups = 1024

func newChainState() chainState {
	return chainState{open: map[threadKey]*errChain{}, lead: map[threadKey]*errChain{}, groups: map[chainKey]*chainGroup{}}
}

// warn starts a new chain on th; the thread's previous chain is complete.
func (s *chainState) warn(th threadKey, tmpl string, ev Evidence) {
	s.close(th)
	s.open[th] = &errChain{warn: tmpl, warnEv: ev}
}

// frame adds a backtrace line to its thread's chain.
func (s *chainState) frame(th threadKey, f *parser.Frame, ev Evidence) {
	c := s.open[th]
	if c == nil {
		if c = s.lead[th]; c == nil {
			c = &errChain{}
			s.lead[th] = c
		}
	}
	c.add(f, ev)
}

func (c *errChain) add(f *parser.Frame, ev Evidence) {
	if c.frames == 0 {
		c.root, c.rootEv = *f, ev
	}
	c.frames++
	c.last = *f
}

// extend continues c with the frames of o, which follow them on the same thread.
func (c *errChain) extend(o *errChain) {
	if o.frames == 0 {
		return
	}
	if c.frames == 0 {
		c.root, c.rootEv = o.root, o.rootEv
	}
	c.frames += o.frames
	c.last = o.last
}

// close files th's open chain under its root cause, if it has frames.
func (s *chainState) close(th threadKey) {
	if c := s.open[th]; c != nil {
		s.file(th.procID, c)
		delete(s.open, th)
	}
}

func (s *chainState) file(p procID, c *errChain) {
	if c.frames == 0 {
		return
	}
	k := chainKey{Warn: c.warn, Where: fmt.Sprintf("%s:%d", c.root.File, c.root.Line), Result: c.root.Result}
	g := s.groups[k]
	if g == nil {
		if len(s.groups) >= maxChainGroups {
			return
		}
		ev := c.rootEv
		if c.warn != "" {
			ev = c.warnEv
		}
		g = &chainGroup{ev: ev, procs: map[procID]struct{}{}, last: fmt.Sprintf("%s:%d", c.last.File, c.last.Line)}
		s.groups[k] = g
		s.order = append(s.order, k)
	}
	g.n++
	g.frames += c.frames
	g.procs[p] = struct{}{}
}

// merge takes the chains of o, whose lines follow s's.
func (s *chainState) merge(o *chainState) {
	for th, lc := range o.lead {
		switch {
		case s.open[th] != nil:
			s.open[th].extend(lc)
		case s.lead[th] != nil:
			s.lead[th].extend(lc)
		default:
			s.lead[th] = lc
		}
	}
	for _, th := range sortedThreads(o.open) {
		s.close(th)
		s.open[th] = o.open[th]
	}
	for _, k := range o.order {
		og := o.groups[k]
		g := s.groups[k]
		if g == nil {
			if len(s.groups) >= maxChainGroups {
				continue
			}
			g = &chainGroup{ev: og.ev, procs: map[procID]struct{}{}, last: og.last}
			s.groups[k] = g
			s.order = append(s.order, k)
		}
		g.n += og.n
		g.frames += og.frames
		for p := range og.procs {
			g.procs[p] = struct{}{}
		}
	}
}

// settle files every chain still open, for the report; call it on a copy's state only once.
func (s *chainState) settle() {
	for _, th := range sortedThreads(s.lead) {
		s.file(th.procID, s.lead[th])
	}
	s.lead = map[threadKey]*errChain{}
	for _, th := range sortedThreads(s.open) {
		s.close(th)
	}
}

// sortedThreads is m's threads in a fixed order, so that results do not depend on map order.
func sortedThreads(m map[threadKey]*errChain) []threadKey { return sortedKeysOf(m) }

func sortedKeysOf[V any](m map[threadKey]V) []threadKey {
	ths := make([]threadKey, 0, len(m))
	for th := range m {
		ths = append(ths, th)
	}
	slices.SortFunc(ths, func(a, b threadKey) int {
		return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.Pid, b.Pid), cmp.Compare(a.Tid, b.Tid))
	})
	return ths
}

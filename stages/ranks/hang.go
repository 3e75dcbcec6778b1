package ranks

import (
	"cmp"
	"slices"
)

// Suspect is a rank that may be why a communicator hung, with the evidence and a score
// (higher is more likely).
type Suspect struct {
	Member *Member // nil for ranks that have no lines at all
	Rank   int64   // the absent rank, when Member is nil (-1: ranks not known)
	// Ranks is how many absent ranks the entry stands for (1, or more where their numbers
	// are not known).
	Ranks int64
	Score int
	// Behind is how many calls fewer than the furthest any rank got.
	Behind int64
	// Next is the call the others made that this rank never did (Behind > 0).
	Next     Sig
	NextStep int64
	Absent   bool
	// Evidence are the kinds of evidence against the rank (see hangEvidence).
	Evidence []Evidence
	// Stall is what the times say of its calls (EvStalled: Kind Stalled).
	Stall Stall
}

// HangFinding is where the ranks of one communicator stopped.
type HangFinding struct {
	Group    *Group
	Coverage Coverage
	MaxCalls int64 // the furthest position any rank got to
	Present  int64 // ranks with lines
	// WaitedOn: the present ranks issued calls, and those that got furthest (all of them, or
	// two or more) stopped at the same one, as ranks waiting for the absent ones would; not
	// where the input's end explains where they stop (Coverage.CutFrom).
	WaitedOn bool
	Suspects []Suspect
	// Mismatch is the communicator's first call where its ranks issued different calls, as
	// check finds it; nil where they agree (or check does not judge it).
	Mismatch *CheckFinding
	// AbortedAlone are the ranks whose communicator ends in Abort where another rank's does
	// not; they are suspects only where another got further (aborted).
	AbortedAlone []*Member
	// Cut are the ranks behind whose calls run to the log's end by the times (StallCut):
	// not behind as a hung rank is, for the log looks cut there.
	Cut []CutRank
}

// CutRank is a rank behind whose calls run to the log's end, with what the times say.
type CutRank struct {
	Member *Member
	Behind int64
	Stall  Stall
}

// hangCtx is what evidence about one rank is judged against.
type hangCtx struct {
	r       *Ranks
	g       *Group
	cov     Coverage
	top     int64 // the furthest position any rank got to
	atTop   int   // ranks that got there
	liveTop int64 // the furthest position a rank whose communicator did not end got to
	stall   *stallCtx
	stalls  map[*Member]Stall
}

// evidence is one kind of evidence against a rank: its name (as Suspect.Evidence holds it)
// and what it adds to the score, or ok false where it does not apply. A new kind of evidence
// is one more entry in hangEvidence.
type evidence func(c *hangCtx, m *Member) (kind Evidence, score int, ok bool)

// hangEvidence is every kind of evidence that counts on its own, in the order it is listed.
// (A process's WARN that is not the end of its log only supports these: see suspects.)
func hangEvidence() []evidence {
	return []evidence{behind, stalled, aborted, endedEarly, endsInWarn}
}

// Hang returns, per communicator, how much of it the input covers and its ranks ordered by
// how likely each is the culprit; communicators where no rank stands out have no suspects.
func (r *Ranks) Hang() []HangFinding {
	r.settle()
	gs := r.Groups()
	ctx, sctx := newAbsentCtx(gs), r.newStallCtx(gs)
	var out []HangFinding
	for _, g := range gs {
		out = append(out, r.hangOf(g, r.Cover(g), ctx, sctx))
	}
	return out
}

// absentCtx is what tells whether a communicator's ranks without lines can be judged
// (judged): per size, the communicators grouped by inference, and those named by Init
// lines with fewer ranks with lines than ranks; and the processes whose lines start after their first
// call on some communicator (an excerpt's).
type absentCtx struct {
	inferred, named map[int64]int
	excerptProcs    map[procKey]bool
	// gs are the communicators; procs counts the processes with a rank of one of them, -1
	// until a verdict asks (procCount). Only a communicator with ranks missing asks, and a
	// log of set-up alone holds tens of thousands of processes, which cost a map of them as
	// much as the rest of its verdicts.
	gs    []*Group
	procs int
}

func newAbsentCtx(gs []*Group) *absentCtx {
	c := &absentCtx{inferred: map[int64]int{}, named: map[int64]int{}, excerptProcs: map[procKey]bool{},
		gs: gs, procs: -1}
	for _, g := range gs {
		if excerpt, _, _ := edgesOf(g); excerpt {
			for _, m := range g.Members {
				c.excerptProcs[m.proc()] = true
			}
		}
		switch {
		case g.Inferred():
			c.inferred[g.NRanks]++
		case int64(len(g.Members)) < g.NRanks:
			c.named[g.NRanks]++
		}
	}
	return c
}

func (r *Ranks) hangOf(g *Group, cov Coverage, actx *absentCtx, sctx *stallCtx) HangFinding {
	c := &hangCtx{r: r, g: g, cov: cov, top: g.MaxCalls(), stall: sctx}
	f := HangFinding{Group: g, Coverage: c.cov, MaxCalls: c.top, Present: int64(len(g.Members))}
	if c.cov.Conflict != "" || c.cov.Truncated {
		return f
	}
	for _, m := range g.Members {
		if m.end == endNone {
			c.liveTop = max(c.liveTop, m.Through())
		}
		if m.Through() == c.top {
			c.atTop++
		}
	}
	f.WaitedOn = c.top > 0 && c.cov.CutFrom < 0 && (c.atTop == len(g.Members) || c.atTop >= 2)
	f.AbortedAlone = abortedAlone(g)
	if m, ok := r.firstMismatch(g); ok && !g.shaky {
		f.Mismatch = &m
	}
	f.Suspects = c.suspects()
	f.Cut = c.cutRanks()
	if f.WaitedOn && actx.judged(g, &c.cov) {
		f.Suspects = append(f.Suspects, absentSuspects(c.cov)...)
	}
	slices.SortFunc(f.Suspects, func(a, b Suspect) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Behind, a.Behind), cmp.Compare(a.Rank, b.Rank))
	})
	return f
}

// hit is one piece of evidence found against a rank.
type hit struct {
	kind  Evidence
	score int
}

// suspects weighs the evidence against every present rank. Evidence that every present rank
// shares (every rank aborted, as PyTorch's destroy_process_group does; every log ends in a
// WARN) is no evidence against any one of them and is left out.
func (c *hangCtx) suspects() []Suspect {
	hits := make([][]hit, len(c.g.Members))
	count := map[Evidence]int{}
	for i, m := range c.g.Members {
		for _, ev := range hangEvidence() {
			if kind, score, ok := ev(c, m); ok {
				hits[i] = append(hits[i], hit{kind, score})
				count[kind]++
			}
		}
	}
	var out []Suspect
	for i, m := range c.g.Members {
		s := Suspect{Member: m, Rank: m.Rank, Ranks: 1, Behind: c.top - m.Through(), NextStep: -1}
		for _, h := range hits[i] {
			if len(hits) < 2 || count[h.kind] < len(hits) {
				s.Evidence = append(s.Evidence, h.kind)
				s.Score += h.score
			}
		}
		if s.Score == 0 {
			continue
		}
		if m.Warn() != "" && !slices.Contains(s.Evidence, EvEndsInWarn) {
			// A WARN is common in healthy jobs too: it only supports other evidence.
			s.Score += 15
			s.Evidence = append(s.Evidence, EvWarn)
		}
		if slices.Contains(s.Evidence, EvBehind) {
			s.Next, s.NextStep, _ = c.r.RefCall(c.g, m.Through())
		}
		if slices.Contains(s.Evidence, EvStalled) {
			s.Stall = c.stallOf(m)
		}
		out = append(out, s)
	}
	return out
}

// behind: the rank stopped before the furthest call of the others; not where the input's end
// explains where it stops (Coverage.EndsCut, Coverage.Cut), nor where the ranks' places in
// the sequence are not known (Group.shaky).
// Nor where the times show its calls run to the log's end (StallCut).
func behind(c *hangCtx, m *Member) (Evidence, int, bool) {
	b := c.top - m.Through()
	if !c.behindByCalls(m) || c.stallOf(m).Kind == StallCut {
		return 0, 0, false
	}
	return EvBehind, 50 + int(40*b/max(c.top, 1)), true
}

// behindByCalls reports whether m stopped before the furthest call of the others where the
// input's end does not explain it, by the calls alone.
func (c *hangCtx) behindByCalls(m *Member) bool {
	return c.top-m.Through() > 0 && !c.cov.EndsCut && !c.cov.Cut(m) && !c.g.shaky
}

// stalled: the rank is behind, and the times show its calls stopped long before the log's
// later lines (Stalled).
func stalled(c *hangCtx, m *Member) (Evidence, int, bool) {
	return EvStalled, 30, c.behindByCalls(m) && c.stallOf(m).Kind == Stalled
}

// stallOf is what the times say of m, worked out once.
func (c *hangCtx) stallOf(m *Member) Stall {
	if s, ok := c.stalls[m]; ok {
		return s
	}
	if c.stalls == nil {
		c.stalls = map[*Member]Stall{}
	}
	s := c.stall.stallOf(m)
	c.stalls[m] = s
	return s
}

// cutRanks are the ranks behind by their calls whose times show the log cut (CutRank).
func (c *hangCtx) cutRanks() []CutRank {
	var out []CutRank
	for _, m := range c.g.Members {
		if c.behindByCalls(m) && c.stallOf(m).Kind == StallCut {
			out = append(out, CutRank{m, c.top - m.Through(), c.stallOf(m)})
		}
	}
	return out
}

// aborted: the rank's communicator ends in Abort while a rank that still has it got further.
// (Where none got further, the others may be on their way to their Abort, as in a log cut
// during a healthy shutdown that aborts every communicator.)
func aborted(c *hangCtx, m *Member) (Evidence, int, bool) {
	return EvAbort, 60, m.end == endAbort && c.liveTop > m.Through()
}

// endedEarly: the rank's communicator ends in Destroy while a rank that still has it got
// further. (Where none got further, the others may be on their way to their Destroy, as in a
// log cut during a healthy teardown.)
func endedEarly(c *hangCtx, m *Member) (Evidence, int, bool) {
	return EvEndedEarly, 30, m.end != endNone && m.end != endAbort && c.liveTop > m.Through()
}

// endsInWarn: the process's log ends with a WARN that names a fault (no call on any
// communicator after it). A notice healthy jobs print too (NUMA balancing, a plugin not
// found, an IB port event) is no sign of a hang: a log cut right after one ends in it.
func endsInWarn(c *hangCtx, m *Member) (Evidence, int, bool) {
	return EvEndsInWarn, 40, m.Warn() != "" && !m.WarnAdvice() && m.WarnLine() > m.ProcLast()
}

// judged reports whether g's ranks without lines can be judged from what the input holds.
// Not where another communicator of its size is grouped by inference (or, for one grouped
// by inference, named by Init lines and lacking ranks): the inferred one's ranks are those
// whose Init lines the input does not hold, and they may be the ones missing here. Nor in an excerpt (g's, or one of its
// ranks' processes' on another communicator) where a rank with lines shows fewer than
// farGap calls: a healthy rank that far behind has all its calls before the excerpt starts.
// So also where the input starts after g's inits (initCut).
func (c *absentCtx) judged(g *Group, cov *Coverage) bool {
	others := c.inferred[g.NRanks]
	if g.Inferred() {
		others += c.named[g.NRanks] - 1
	}
	if others > 0 {
		return false
	}
	// Processes in the input with no rank of g: where g's Init lines are cut off, its
	// missing ranks may be theirs.
	excerpt, own := cov.Excerpt, map[procKey]bool{}
	for _, m := range g.Members {
		excerpt = excerpt || c.excerptProcs[m.proc()]
		own[m.proc()] = true
	}
	excerpt = excerpt || c.procCount() > len(own) || initCut(g)
	for _, m := range g.Members {
		if excerpt && m.Calls > 0 && m.Calls < farGap {
			return false
		}
	}
	return true
}

// procCount is how many processes have a rank of some communicator.
func (c *absentCtx) procCount() int {
	if c.procs >= 0 {
		return c.procs
	}
	members := 0
	for _, g := range c.gs {
		members += len(g.Members)
	}
	// Sized for every member at once: grown an insert at a time, rehashing its string keys
	// cost as much as the inserts on a log of thousands of processes.
	procs := make(map[procKey]struct{}, members)
	for _, g := range c.gs {
		for _, m := range g.Members {
			procs[m.proc()] = struct{}{}
		}
	}
	c.procs = len(procs)
	return c.procs
}

// initCut reports whether the input starts after g's inits: g is named by Init lines, yet a
// rank that issued calls has none (its rank not known from any line). Its Init line came
// before the input's first line, and so may those of the ranks without lines, which then
// have not issued a call yet where the input ends (a piece cut from a starting job).
func initCut(g *Group) bool {
	if g.Inferred() {
		return false
	}
	for _, m := range g.Members {
		if m.Calls > 0 && m.rankFrom == rankNone {
			return true
		}
	}
	return false
}

// absentSuspects are the ranks without lines on the nodes the input covers, as suspects: one
// each where their numbers are known, else one entry for all of them.
func absentSuspects(cov Coverage) []Suspect {
	ranks, n := cov.JudgedAbsent()
	if n == 0 {
		return nil
	}
	if len(ranks) == 0 {
		return []Suspect{{Rank: -1, Ranks: n, Score: 100, Absent: true, NextStep: -1}}
	}
	out := make([]Suspect, 0, len(ranks))
	for _, rk := range ranks {
		out = append(out, Suspect{Rank: rk, Ranks: 1, Score: 100, Absent: true, NextStep: -1})
	}
	return out
}

// abortedAlone returns the members whose communicator ends in Abort, where some other
// member's does not.
func abortedAlone(g *Group) []*Member {
	var out []*Member
	for _, m := range g.Members {
		if m.end == endAbort {
			out = append(out, m)
		}
	}
	if len(out) == len(g.Members) {
		return nil
	}
	return out
}

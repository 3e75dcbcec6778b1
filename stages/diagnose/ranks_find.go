package diagnose

import (
	"fmt"
	"slices"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/ranks"
)

// ranksFindings are the ranks family's verdicts: a mismatch at a call position (the ranks on
// the smaller side) and a rank that aborted alone, which prove a fault, and a rank behind
// where the others stopped at the same call waiting for it, which is a suspect only.
func ranksFindings(set *stages.Set, x *procIndex) []*cand {
	if _, ok := stages.Part[*ranks.RanksPart](set); !ok {
		return nil
	}
	r := ranks.RanksOf(set)
	if !r.Called() {
		return nil // no call: no mismatch, and no rank the others waited on
	}
	var out []*cand
	checks, hangs := r.Verdicts()
	for _, f := range checks {
		if f.Kind == ranks.KindMismatch && len(f.Sides) >= 2 {
			out = append(out, mismatchCand(&f, x))
		}
	}
	for _, h := range hangs {
		if !h.WaitedOn {
			continue
		}
		for _, s := range h.Suspects {
			if s.Member != nil && s.Behind > 0 {
				out = append(out, behindCand(&h, &s, x))
			}
		}
	}
	return out
}

func mismatchCand(f *ranks.CheckFinding, x *procIndex) *cand {
	sides := slices.Clone(f.Sides)
	slices.SortStableFunc(sides, func(a, b ranks.Side) int { return len(a.Members) - len(b.Members) })
	c := newCand(KindMismatch, true)
	c.comm = fmt.Sprintf("%#x", f.Group.Key.CommID)
	for _, m := range sides[0].Members {
		c.procs = appendProc(c.procs, x.get(m.Host, m.Pid))
		c.refs = append(c.refs, Ref{File: m.File, Line: m.LastLine(), Text: "last call of this rank"})
	}
	c.summary = fmt.Sprintf("%s issued a different call (%s differs) at call %d of communicator %s than the %s.",
		who(c), f.What, f.Index, c.comm, plural(len(sides[len(sides)-1].Members), "other rank", "other ranks"))
	return c
}

func behindCand(h *ranks.HangFinding, s *ranks.Suspect, x *procIndex) *cand {
	m := s.Member
	k := KindBehind
	if slices.Contains(s.Evidence, ranks.EvAbort) {
		k = KindAbort
	}
	// A rank behind the others looks the same whether the job hung there or the log was cut
	// there: only an abort proves a fault by itself.
	c := newCand(k, k == KindAbort)
	c.comm = fmt.Sprintf("%#x", h.Group.Key.CommID)
	c.procs = []*proc{x.get(m.Host, m.Pid)}
	c.refs = append(c.refs, Ref{File: m.File, Line: m.LastLine(), Text: "last call of this rank"})
	verb := "stopped"
	if k == KindAbort {
		verb = "aborted alone"
	}
	c.summary = fmt.Sprintf("%s %s %s behind the others on communicator %s, which waited for it.",
		who(c), verb, plural(int(s.Behind), "call", "calls"), c.comm)
	stallNote(c, s)
	return c
}

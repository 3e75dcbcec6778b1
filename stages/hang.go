package stages

import (
	"cmp"
	"slices"
)

// Suspect is a rank that may be why a communicator hung, with the evidence and a score
// (higher is more likely).
type Suspect struct {
	Member *Member // nil for a rank that has no lines at all
	Rank   int64   // the absent rank, when Member is nil
	Score  int
	// Behind is how many calls fewer than the most any rank issued.
	Behind int64
	// Next is the call the others made that this rank never did (Behind > 0).
	Next     Sig
	NextStep int64
	Absent   bool
	Evidence []string
}

// HangFinding is where the ranks of one communicator stopped.
type HangFinding struct {
	Group    *Group
	MaxCalls int64
	Present  int64 // ranks with lines
	Suspects []Suspect
}

// Hang returns, per communicator, its ranks ordered by how likely each is the culprit;
// communicators where no rank stands out have no suspects.
func (r *Ranks) Hang() []HangFinding {
	var out []HangFinding
	for _, g := range r.Groups() {
		f := HangFinding{Group: g, MaxCalls: g.MaxCalls(), Present: int64(len(g.Members))}
		anyLive := false
		for _, m := range g.Members {
			anyLive = anyLive || m.End == ""
		}
		for _, m := range g.Members {
			if s, ok := r.suspect(g, m, f.MaxCalls, anyLive); ok {
				f.Suspects = append(f.Suspects, s)
			}
		}
		for _, rk := range absentRanks(g) {
			f.Suspects = append(f.Suspects, Suspect{Rank: rk, Score: 100, Absent: true, NextStep: -1})
		}
		slices.SortFunc(f.Suspects, func(a, b Suspect) int {
			return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Behind, a.Behind), cmp.Compare(a.Rank, b.Rank))
		})
		out = append(out, f)
	}
	return out
}

func (r *Ranks) suspect(g *Group, m *Member, top int64, anyLive bool) (Suspect, bool) {
	s := Suspect{Member: m, Rank: m.Rank, Behind: top - m.Calls, NextStep: -1}
	if s.Behind > 0 {
		s.Score += 50 + int(40*s.Behind/max(top, 1))
		s.Next, s.NextStep, _ = r.RefCall(g, m.Calls)
		s.Evidence = append(s.Evidence, "behind")
	}
	switch {
	case m.End == "Abort":
		s.Score += 60
		s.Evidence = append(s.Evidence, "abort")
	case m.End != "" && anyLive:
		s.Score += 30
		s.Evidence = append(s.Evidence, "ended-early")
	}
	// A WARN is common in healthy jobs too: alone it counts only where the process's log ends
	// with it (no call on any communicator after it); otherwise it supports other evidence.
	switch {
	case m.Warn != "" && m.WarnLine > m.ProcLast:
		s.Score += 40
		s.Evidence = append(s.Evidence, "ends-in-warn")
	case m.Warn != "" && s.Score > 0:
		s.Score += 15
		s.Evidence = append(s.Evidence, "warn")
	}
	return s, s.Score > 0
}

// absentRanks are the ranks 0..NRanks-1 no line was seen from, where the ranks are known.
func absentRanks(g *Group) []int64 {
	seen := make(map[int64]bool)
	for _, m := range g.Members {
		if m.Rank < 0 {
			return nil
		}
		seen[m.Rank] = true
	}
	var out []int64
	for rk := int64(0); rk < g.NRanks && len(out) < 64; rk++ {
		if !seen[rk] {
			out = append(out, rk)
		}
	}
	return out
}

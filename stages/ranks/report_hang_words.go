package ranks

import (
	"fmt"
	"strings"
)

// evidenceText says in words why a rank is a suspect.
func evidenceText(s Suspect, f HangFinding) []string {
	if s.Absent {
		return []string{absentText(s, f)}
	}
	m := s.Member
	var out []string
	for _, e := range s.Evidence {
		switch e {
		case EvBehind:
			out = append(out, behindText(s, f))
		case EvAbort:
			out = append(out, "its communicator ends in Abort")
		case EvEndedEarly:
			out = append(out, "its communicator ends in "+m.End()+" while other ranks' do not")
		case EvWarn:
			out = append(out, fmt.Sprintf("its process WARNed (%s:%d): %s", m.File, m.WarnLine(), m.Warn()))
		case EvStalled:
			if st, ok := stallIn(f, m); ok {
				out = append(out, stalledText(st))
			}
		case EvEndsInWarn:
			out = append(out, fmt.Sprintf("its log ends in a WARN after its last call (%s:%d): %s", m.File, m.WarnLine(), m.Warn()))
		default:
			// A kind with no wording yet still says which it is (kinds_test.go checks each has one).
			out = append(out, "evidence: "+e.String())
		}
	}
	return out
}

// behindText says how far a rank got, its last call and the call it never issued.
func behindText(s Suspect, f HangFinding) string {
	m := s.Member
	t := fmt.Sprintf("issued %s, %s fewer than the furthest rank got (%s)", calls(m.Calls), count(s.Behind), count(f.MaxCalls))
	if m.Start > 0 {
		t = fmt.Sprintf("issued %s from call %d on, stopping %s before the furthest rank (call %d)",
			calls(m.Calls), m.Start, calls(s.Behind), f.MaxCalls-1)
	}
	if m.Calls > 0 {
		t += fmt.Sprintf("; last: call %d %s (%s:%d%s)", m.Through()-1, sigText(m.Last()), m.File, m.LastLine(),
			withStep(m.LastStep()))
	}
	if s.Next.Op != "" {
		t += fmt.Sprintf("; never issued call %d: %s%s", m.Through(), sigText(s.Next), withStep(s.NextStep))
	}
	return t
}

// absentText says why ranks without lines are suspects.
func absentText(s Suspect, f HangFinding) string {
	who := fmt.Sprintf("no line from rank %d at all", s.Rank)
	if s.Rank < 0 {
		who = fmt.Sprintf("no line from %d of its ranks at all (their numbers are not known)", s.Ranks)
	}
	return fmt.Sprintf("%s, while the ranks that got furthest stopped together at call %d: its log is missing or the process died before it logged this communicator",
		who, f.MaxCalls-1)
}

func judgedAbsent(c Coverage) int64 {
	_, n := c.JudgedAbsent()
	return n
}

// hangVerdict says in one sentence what the communicator's ranks show.
func hangVerdict(f HangFinding) string {
	c := f.Coverage
	switch {
	case c.Conflict != "":
		return "no verdict: these are not the ranks of one communicator"
	case len(f.Suspects) > 0:
		if len(f.Suspects) == 1 {
			return "1 suspect stands out"
		}
		return itoa(int64(len(f.Suspects))) + " suspects stand out"
	case f.MaxCalls == 0:
		return "no rank with lines issued a call on it; nothing to judge"
	case len(f.Cut) > 0:
		return "no rank stands out: " + cutText(f.Cut[0])
	case c.EndsCut && c.CutWhy == CutExcerpt:
		return "no rank stands out: the ranks stop at different calls only where the excerpt cuts them"
	case c.EndsCut:
		return "no rank stands out: the ranks stop a few calls apart where the log ends, as a job that still issued calls does"
	case judgedAbsent(c) > 0 && !f.WaitedOn:
		return fmt.Sprintf("no rank stands out; %s no lines, but the ranks with lines did not all stop at one call, so nothing shows they waited for the others",
			hasHave(judgedAbsent(c)))
	case c.SomeNodes():
		return fmt.Sprintf("every rank with lines got to call %d; the ranks of the nodes this log does not cover are not judged", f.MaxCalls-1)
	}
	if m := f.Mismatch; m != nil {
		what := m.What + " differs"
		if strings.Contains(m.What, ",") {
			what = strings.ReplaceAll(m.What, ",", " and ") + " differ"
		}
		return fmt.Sprintf("every rank with lines got to call %d and none is behind, but at call %d they issued different calls (%s; check lists them)",
			f.MaxCalls-1, m.Index, what)
	}
	if a := f.AbortedAlone; len(a) > 0 {
		return fmt.Sprintf("every rank with lines got to call %d and none is behind, but %s communicator ends in Abort and the others' do not (a fault, or a shutdown the log cuts short; diagnose weighs it)",
			f.MaxCalls-1, abortedWho(a))
	}
	return fmt.Sprintf("every rank with lines got to call %d; none is behind, and none aborted alone", f.MaxCalls-1)
}

// abortedWho names the ranks that aborted alone: "rank 3's", "ranks 3 and 5's", "4 ranks'".
func abortedWho(ms []*Member) string {
	switch len(ms) {
	case 1:
		return "rank " + ms[0].Label() + "'s"
	case 2:
		return "ranks " + ms[0].Label() + " and " + ms[1].Label() + "'"
	}
	return itoa(int64(len(ms))) + " ranks'"
}

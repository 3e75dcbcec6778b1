package ranks

import (
	"fmt"
	"strings"
)

// pgLabel names a process group as its watchdog lines do: `process group 0 (default_pg,
// GUID 0)`.
func pgLabel(f PGFinding) string {
	s := "process group " + itoa(f.PG.ID)
	if f.PG.ID < 0 && f.PG.GUID == "" {
		s = "process group not named in the tag"
	}
	var more []string
	if f.Name != "" {
		more = append(more, f.Name)
	}
	if f.PG.GUID != "" {
		more = append(more, "GUID "+f.PG.GUID)
	}
	if len(more) > 0 {
		s += " (" + strings.Join(more, ", ") + ")"
	}
	return s
}

// pgHead says what the watchdog lines of a group cover and what its ranks timed out on.
func pgHead(f PGFinding) string {
	withLines := 0
	for _, r := range f.Rows {
		if r.W != nil {
			withLines++
		}
	}
	s := pgLabel(f) + ": "
	if f.Comm != nil {
		s = fmt.Sprintf("%s%s ranks (comm %s), ", s, itoa(f.NRanks), f.Comm.Label())
	}
	s += plural(int64(withLines), "rank") + " with watchdog lines"
	if f.Seq >= 0 {
		s += fmt.Sprintf("; %d timed out on work %d%s", f.TimedOut, f.Seq, opText(f.OpType))
	}
	if t := clock(f.StartMonth, f.StartDay, f.StartNanos); t != "" {
		s += ", which started at " + t
	}
	return s
}

func opText(op string) string {
	if op == "" {
		return ""
	}
	return " (" + op + ")"
}

// clock is MM-DD HH:MM:SS.mmm, or "" where the time is not known.
func clock(month, day, nanos int64) string {
	if nanos < 0 {
		return ""
	}
	ms := nanos / 1e6
	return fmt.Sprintf("%02d-%02d %02d:%02d:%02d.%03d", month, day, ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

func seqCell(v int64) string {
	if v < 0 {
		return "-"
	}
	return itoa(v)
}

// where is the file:line of a rank's timeout line, else of its queue line.
func where(w *PGRank) string {
	switch {
	case w == nil:
		return ""
	case w.TimeoutLine > 0:
		return fmt.Sprintf("%s:%d", w.File, w.TimeoutLine)
	case w.QueueLine > 0:
		return fmt.Sprintf("%s:%d", w.File, w.QueueLine)
	}
	return fmt.Sprintf("%s:%d", w.File, w.LastLine)
}

// pgVerdict says in one sentence what a group without suspects shows.
func pgVerdict(f PGFinding) string {
	switch {
	case len(f.Suspects) == 1:
		return "1 suspect stands out"
	case len(f.Suspects) > 1:
		return itoa(int64(len(f.Suspects))) + " suspects stand out"
	case f.Seq < 0:
		return "no rank reports a timeout or failure in it (dump signals alone say nothing against a rank); nothing to judge"
	}
	return fmt.Sprintf("every rank with watchdog lines had enqueued work %d; none stands out (a fault they share, such as the network, or a rank whose lines are not here)", f.Seq)
}

// pgEvidence says in words why a rank of a process group is a suspect.
func pgEvidence(s PGSuspect, f PGFinding) []string {
	r := s.Row
	others := fmt.Sprintf("%s timed out on work %d%s", plural(int64(f.TimedOut), "rank"), f.Seq, opText(f.OpType))
	var out []string
	if r.W == nil {
		out = append(out, fmt.Sprintf("printed no watchdog line while %s: it likely never reached that collective", others))
	} else {
		q := r.W
		out = append(out, fmt.Sprintf("its queue (%s) stops below work %d: last enqueued %s, last completed %s, while %s: it never reached that collective (stuck before it: compute, data loading, an exception, another process group)",
			where(q), f.Seq, seqCell(q.LastEnqueued), seqCell(q.LastCompleted), others))
	}
	switch m := r.Member; {
	case !s.Behind || m == nil:
	case m.Calls == 0:
		out = append(out, fmt.Sprintf("it issued no call on comm %s, while the furthest rank got to call %d",
			f.Comm.Label(), f.Comm.MaxCalls()-1))
	default:
		out = append(out, fmt.Sprintf("its NCCL lines on comm %s stop after %s (last %s:%d), before the furthest rank's call %d",
			f.Comm.Label(), calls(m.Calls), m.File, m.LastLine(), f.Comm.MaxCalls()-1))
	}
	return out
}

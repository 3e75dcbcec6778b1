package diagnose

import (
	"slices"
	"strings"
)

// summary is the RAS finding's sentence: what the lead entry proves. Where operation counts
// differ it says which side the named ranks are on: NCCL names the small groups, which may
// be ahead of the many ranks that are behind.
func (r *rasReport) summary(e *rasEntry, c *cand) string {
	if e == nil {
		if len(r.rows) == 0 {
			return "An NCCL RAS report shows a fault."
		}
		return "An NCCL RAS report shows a communicator " + short(r.rows[0].Text) + "."
	}
	s := "NCCL RAS report"
	if e.comm != "" {
		s += ", comm " + e.comm
	}
	if d := e.countDiff(); d != nil {
		return s + ": " + d.countSentence() + "."
	}
	s += ": " + e.what
	if e.what == "" {
		s = strings.TrimSuffix(s, ": ")
	}
	for _, d := range e.diffs {
		if d.text != "" {
			s += ": " + short(d.text)
			break
		}
	}
	if rs := e.ranks(); len(rs) > 0 {
		return s + "; it names " + rankWord(rs) + "."
	}
	if ps := namesOf(c.procs); len(ps) > 0 {
		return s + "; it names " + plural(len(ps), "process", "processes") + " (" + strings.Join(ps, ", ") + ")."
	}
	return s + "."
}

// countSentence tells a difference of operation counts against the largest group, the
// first printed: "ranks 12-13 launched up to operation 641 while 30 ranks are at 640: those
// 30 ranks are behind, not the ranks the report names". "" where the lines do not tell it
// (no counts, a report cut short, every group named).
func (d *rasDiff) countSentence() string {
	parts, ahead, behind := d.sides()
	if len(parts) == 0 {
		return ""
	}
	most := d.groups[0]
	at := "at operation " + itoa(most.val)
	if most.val == 0 {
		at = "at none"
	}
	s := strings.Join(parts, ", ") + " while " + plural(most.n, "rank is ", "ranks are ") + at
	switch {
	case ahead:
		return s + ": those " + plural(most.n, "rank", "ranks") + " are behind, not the ranks it names"
	case behind:
		return s + ": the ranks it names are behind"
	}
	return s
}

// countDiff is the entry's first difference of operation counts whose sides the lines tell,
// nil where none (or no entry).
func (e *rasEntry) countDiff() *rasDiff {
	if e == nil {
		return nil
	}
	for _, d := range e.diffs {
		if d.countSentence() != "" {
			return d
		}
	}
	return nil
}

// namesAhead reports whether the ranks a difference of operation counts names are all ahead
// of the largest group, which it does not name: those behind are the job's stall.
func (d *rasDiff) namesAhead() bool {
	parts, ahead, _ := d.sides()
	return len(parts) > 0 && ahead
}

// sides says the named groups of a difference of operation counts against the largest one,
// unnamed ("ranks 5, 12 launched up to operation 6651"), and whether all of them are ahead of
// it or all behind; no parts where the lines do not tell it.
func (d *rasDiff) sides() (parts []string, ahead, behind bool) {
	if !d.counts || len(d.groups) < 2 {
		return nil, false, false
	}
	most := d.groups[0]
	if len(most.ranks) > 0 || most.val < 0 {
		return nil, false, false
	}
	ahead, behind = true, true
	for _, g := range d.groups[1:] {
		if len(g.ranks) == 0 || g.val < 0 {
			continue
		}
		rs := slices.Sorted(slices.Values(g.ranks))
		parts = append(parts, rankWord(rs)+" "+launched(g.val))
		ahead, behind = ahead && g.val > most.val, behind && g.val < most.val
	}
	return parts, ahead, behind
}

func launched(v int64) string {
	if v == 0 {
		return "launched no operation"
	}
	return "launched up to operation " + itoa(v)
}

// rankWord is "rank 5" or "ranks 5, 12".
func rankWord(rs []int64) string {
	if len(rs) == 1 {
		return "rank " + itoa(rs[0])
	}
	return "ranks " + rankList(rs)
}

// ranks are the ranks the entry names, sorted.
func (e *rasEntry) ranks() []int64 {
	var rs []int64
	for _, it := range e.named {
		if it.Name == "rank" && it.Rank >= 0 && !slices.Contains(rs, it.Rank) {
			rs = append(rs, it.Rank)
		}
	}
	slices.Sort(rs)
	return rs
}

package diagnose

import (
	"strconv"
	"strings"
)

// dupRank reads the rank and the job's size from the bootstrap root's `Bootstrap Root : rank
// N of M ranks has already checked in`: two processes claimed rank N (the launcher's rank
// settings), and the root, where it was seen, is neither of them.
func dupRank(it *Item) (rank, of int64, ok bool) {
	if it.Ev != evInvalid {
		return 0, 0, false
	}
	t := it.Text
	i := strings.Index(t, "rank ")
	if i < 0 || !strings.HasSuffix(strings.TrimSpace(t), "ranks has already checked in") {
		return 0, 0, false
	}
	f := strings.Fields(t[i:]) // rank N of M ranks has already checked in
	if len(f) < 4 || f[2] != "of" {
		return 0, 0, false
	}
	r, err1 := strconv.ParseInt(f[1], 10, 64)
	n, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil || r < 0 || n <= 0 {
		return 0, 0, false
	}
	return r, n, true
}

// dupRankSummary says which rank two processes claimed, where the finding's evidence is the
// bootstrap root's word on it; "" where it is not.
func dupRankSummary(c *cand) string {
	for _, it := range c.items {
		r, n, ok := dupRank(it)
		if !ok {
			continue
		}
		s := "Two processes claimed rank " + itoa(r) + " of " + itoa(n) + " (the launcher's rank settings: a rank given twice, or two jobs on one bootstrap address)"
		if len(c.procs) > 0 {
			s += "; the bootstrap root " + c.procs[0].name() + " saw it check in twice"
		}
		return s + ": " + short(it.Text)
	}
	return ""
}

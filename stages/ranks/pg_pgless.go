package ranks

// adoptPGless files p, a timeout line whose tag names no group (`[rank4]:... [Rank 4]
// Watchdog caught ...`) and whose rank has no line in any named group, under the one named
// group whose ranks timed out on the same work with the same op, sizes and timeout: without
// it the group would count one rank less than the log shows, and read the gap it leaves as a
// rank that printed nothing. It reports whether it did; p is unchanged where no group, or
// more than one, matches.
func adoptPGless(p *PGRank, ps []*PGRank) bool {
	var into *PGRank
	for _, q := range ps {
		if q.PG.ID < 0 && q.PG.GUID == "" || !sameWork(p, q) {
			continue
		}
		if into != nil && into.PG != q.PG {
			return false // two groups timed out on that work: which one is not said
		}
		into = q
	}
	if into == nil {
		return false
	}
	for _, q := range ps {
		if q.PG == into.PG && q.Rank == p.Rank {
			return false // the group has the rank already, on other work
		}
	}
	p.PG, p.Name = into.PG, into.Name
	return true
}

// sameWork: q timed out on the work p did, and what both lines print of it agrees.
func sameWork(p, q *PGRank) bool {
	agree := func(a, b int64) bool { return a < 0 || b < 0 || a == b }
	return q.TimedOut == p.TimedOut && (p.OpType == "" || q.OpType == "" || p.OpType == q.OpType) &&
		agree(p.NumelIn, q.NumelIn) && agree(p.NumelOut, q.NumelOut) && agree(p.TimeoutMs, q.TimeoutMs)
}

// silent: no line of the log is tied to the row's rank (a gap in the group's rank numbers).
func (row *PGRow) silent() bool { return row.W == nil && row.Member == nil && row.Host == "" }

// excerptGaps: the group's silent ranks are what an excerpt leaves out, not ranks that held
// the others up. So it is where two or more ranks are silent and every rank with a watchdog
// line timed out on the same work (a timeout they share, as diagnose reads it): a log that
// holds every rank's output but one, silent while the others wait, points at that one; a
// log that misses several ranks while each rank it shows times out alike holds only some
// ranks' output, and their absence says nothing against them.
func (f *PGFinding) excerptGaps() bool {
	silent, lined := 0, 0
	for i := range f.Rows {
		switch row := &f.Rows[i]; {
		case row.silent():
			silent++
		case row.W != nil:
			lined++
		}
	}
	return silent >= 2 && f.Seq >= 0 && f.TimedOut == lined
}

package ranks

import (
	"cmp"
	"slices"
)

// PGRow is one rank of a process group: its watchdog state (nil where it printed no watchdog
// line), the process and NCCL rank its lines are tied to, and its state.
type PGRow struct {
	Rank  int64
	State PGState
	W     *PGRank // nil: no watchdog line from this rank
	// Host and Pid are the process of the rank's NCCL lines (same file and launcher label, or
	// the file's one process; for the default group, the world communicator's rank); "" / 0
	// where none is known. Member is its rank of Comm, nil where none.
	Host   string
	Pid    int64
	Member *Member
	// StartNanos is when the work it timed out on started (the timeout line's time less the
	// timeout), with StartMonth and StartDay; -1 where the line prints no time or timeout.
	StartMonth, StartDay, StartNanos int64
}

// PGSuspect is a rank of a process group that likely held the others up.
type PGSuspect struct {
	Row   *PGRow
	Score int
	// Behind is set where the rank's NCCL lines on Comm stop before the furthest rank's.
	Behind bool
}

// PGFinding is what the watchdog lines of one process group show.
type PGFinding struct {
	PG   PGKey
	Name string
	// Comm is the NCCL communicator the group's ranks are, where known (the default group:
	// the world communicator); NRanks the group's size from it, 0 where unknown.
	Comm   *Group
	NRanks int64
	// Seq is the work most ranks timed out on (-1: no rank timed out), OpType its op, and
	// TimedOut how many ranks timed out on it; Start* the earliest start among them.
	Seq                              int64
	OpType                           string
	TimedOut                         int
	StartMonth, StartDay, StartNanos int64
	Rows                             []PGRow
	Suspects                         []PGSuspect
}

// PGHang returns, per process group the watchdog lines name, each rank's queue and the ranks
// that never reached the work the others timed out on. A group where every rank with lines
// entered that work (a fault they share) has no suspects, and dump signals alone are no
// evidence: they report no queue.
func (r *Ranks) PGHang() []PGFinding {
	r.settle()
	byPG := map[PGKey][]*PGRank{}
	var keys []PGKey
	for _, p := range resolvePGless(r.PGRanks()) {
		if byPG[p.PG] == nil {
			keys = append(keys, p.PG)
		}
		byPG[p.PG] = append(byPG[p.PG], p)
	}
	j := newPGJoin(r)
	var out []PGFinding
	for _, k := range keys {
		out = append(out, j.finding(k, byPG[k]))
	}
	return out
}

// resolvePGless files each timeout line whose tag names no group under the one group whose
// queue line reports the same rank timing out on the same work, or, where no group has that
// rank, under the one group whose ranks timed out on the same work (adoptPGless); copies, so
// that the state stays as read.
func resolvePGless(ps []*PGRank) []*PGRank {
	out := make([]*PGRank, 0, len(ps))
	for _, p := range ps {
		c := *p
		out = append(out, &c)
	}
	kept := out[:0:0]
	for _, p := range out {
		if p.PG.ID >= 0 || p.PG.GUID != "" || p.TimedOut < 0 {
			kept = append(kept, p)
			continue
		}
		var into []*PGRank
		for _, q := range out {
			if (q.PG.ID >= 0 || q.PG.GUID != "") && (q.Rank == p.Rank || sameProcess(p, q)) && q.TimedOut == p.TimedOut {
				into = append(into, q)
			}
		}
		switch {
		case len(into) == 1:
			into[0].takeTimeout(p)
		case len(into) == 0 && adoptPGless(p, out):
			kept = append(kept, p) // now of the one group whose timeouts it matches
		default:
			kept = append(kept, p)
		}
	}
	return kept
}

// sameProcess: p and q are lines of one process, by the launcher's rank label on both in
// one file. A timeout line that names no group gives the rank in a group other than the one
// its process's tagged lines name (PyTorch 2.4-2.5: `[rank15]:... [Rank 1] Watchdog caught
// ...` beside `[rank15]:... [PG ID 11 PG GUID 112 Rank 0] Exception ...` on the same work);
// the label, not that rank, says whose it is.
func sameProcess(p, q *PGRank) bool {
	return p.Label >= 0 && p.Label == q.Label && p.File == q.File
}

// takeTimeout fills in what the timeout line o says where p has no timeout line of its own.
func (p *PGRank) takeTimeout(o *PGRank) {
	p.Lines += o.Lines
	if p.TimeoutMs >= 0 || p.OpType != "" {
		return
	}
	p.OpType, p.NumelIn, p.NumelOut = o.OpType, o.NumelIn, o.NumelOut
	p.TimeoutMs, p.RanForMs, p.TimeoutLine, p.At = o.TimeoutMs, o.RanForMs, o.TimeoutLine, o.At
}

// reach is the last work the rank is known to have enqueued, -1 where its lines do not say.
func (p *PGRank) reach() int64 { return max(p.LastEnqueued, p.TimedOut) }

// timedOutSeq is the work most of the ranks timed out on (the lower one on a tie), -1 none.
func timedOutSeq(ps []*PGRank) (seq int64, n int) {
	count := map[int64]int{}
	seq = -1
	for _, p := range ps {
		if p.TimedOut < 0 {
			continue
		}
		count[p.TimedOut]++
		c := count[p.TimedOut]
		if c > n || c == n && p.TimedOut < seq {
			seq, n = p.TimedOut, c
		}
	}
	return seq, n
}

func (f *PGFinding) state(p *PGRank) PGState {
	switch e := p.reach(); {
	case e < 0:
		return PGUnknown
	case e < f.Seq:
		return PGNotReached
	case p.TimedOut == f.Seq || p.LastCompleted < f.Seq:
		return PGEntered
	}
	return PGPast
}

// judge sets the rows' states and the suspects: ranks that report a queue below the work the
// others timed out on, and, where two or more ranks timed out on it, the ranks without a
// watchdog line (the group's size known, or gaps in its rank numbers) but for the gaps of an
// excerpt (excerptGaps).
func (f *PGFinding) judge() {
	gaps := f.excerptGaps()
	for i := range f.Rows {
		row := &f.Rows[i]
		switch {
		case row.W == nil:
			row.State = PGNoLine
		case f.Seq < 0:
			row.State = PGUnknown
		default:
			row.State = f.state(row.W)
		}
		behind := row.Member != nil && f.Comm != nil && row.Member.Through() < f.Comm.MaxCalls()
		s := PGSuspect{Row: row, Behind: behind}
		switch {
		case f.Seq < 0:
			continue
		case row.State == PGNotReached:
			s.Score = 90
		case row.State == PGNoLine && f.TimedOut >= 2 && !(gaps && row.silent()):
			s.Score = 70
		default:
			continue
		}
		if behind {
			s.Score += 10
		}
		f.Suspects = append(f.Suspects, s)
	}
	slices.SortStableFunc(f.Suspects, func(a, b PGSuspect) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Row.Rank, b.Row.Rank))
	})
}

// start is when the work a rank timed out on started: the timeout line's time less the
// timeout, going back over midnight (month, day) where it must.
func start(p *PGRank) (month, day, nanos int64) {
	const dayNs = 24 * 3600 * 1e9
	if p.At.Nanos < 0 || p.At.Level == 0 || p.TimeoutMs < 0 || p.TimeoutMs > 366*dayNs/1e6 ||
		p.At.Month < 1 || p.At.Month > 12 || p.At.Day < 1 || p.At.Day > 31 {
		return -1, -1, -1 // no time, or a timeout or date no clock has (a damaged partial)
	}
	month, day, nanos = p.At.Month, p.At.Day, p.At.Nanos-p.TimeoutMs*1e6
	for nanos < 0 {
		nanos += dayNs
		month, day = dayBefore(month, day)
	}
	return month, day, nanos
}

// dayBefore is the calendar day before month/day (the year is never printed: February has 28).
func dayBefore(month, day int64) (int64, int64) {
	if day > 1 {
		return month, day - 1
	}
	lengths := [...]int64{31, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if month <= 1 {
		return 12, 31
	}
	return month - 1, lengths[month-1]
}

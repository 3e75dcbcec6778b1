package ranks

import (
	"cmp"
	"slices"
)

// pgJoin ties watchdog lines to the NCCL lines of the same process: by file and launcher rank
// label, or the file's one process; and the default process group to the world communicator.
type pgJoin struct {
	world  *Group // the largest communicator, nil without NCCL lines
	byFile map[string][]*Member
}

func newPGJoin(r *Ranks) *pgJoin {
	j := &pgJoin{byFile: map[string][]*Member{}}
	groups := r.Groups()
	if len(groups) > 0 {
		j.world = groups[0]
	}
	for _, g := range groups {
		for _, m := range g.Members {
			j.byFile[m.File] = append(j.byFile[m.File], m)
		}
	}
	return j
}

// process is the host:pid of the NCCL lines of p's process, or "", 0.
func (j *pgJoin) process(p *PGRank) (string, int64) {
	host, pid, n := "", int64(0), 0
	for _, m := range j.byFile[p.File] {
		if p.Label >= 0 && m.LaunchRank != p.Label {
			continue
		}
		if n == 0 || m.Host != host || m.Pid != pid {
			n++
		}
		host, pid = m.Host, m.Pid
	}
	if n != 1 {
		return "", 0
	}
	return host, pid
}

// isDefault: the group is PyTorch's default (world) process group.
func isDefault(k PGKey, name string) bool {
	return k.ID == 0 || name == "default_pg"
}

// finding builds the rows of one process group and judges them.
func (j *pgJoin) finding(k PGKey, ps []*PGRank) PGFinding {
	f := PGFinding{PG: k, StartMonth: -1, StartDay: -1, StartNanos: -1}
	for _, p := range ps {
		if p.Name != "" {
			f.Name = p.Name
		}
	}
	if isDefault(k, f.Name) && j.world != nil && maxRank(ps) < j.world.NRanks {
		f.Comm, f.NRanks = j.world, j.world.NRanks
	}
	f.Seq, f.TimedOut = timedOutSeq(ps)
	seen := map[int64]bool{}
	for _, p := range ps {
		seen[p.Rank] = true
		f.Rows = append(f.Rows, j.row(&f, p))
	}
	for _, rk := range missingRanks(seen, f.Comm, f.Seq) {
		f.Rows = append(f.Rows, j.row(&f, newPGRank(pgRankKey{k, rk}, "", -1)))
		f.Rows[len(f.Rows)-1].W = nil
	}
	slices.SortFunc(f.Rows, func(a, b PGRow) int { return cmp.Compare(a.Rank, b.Rank) })
	f.judge()
	return f
}

// row is one rank's row: its process, its NCCL rank and when its stuck work started.
func (j *pgJoin) row(f *PGFinding, p *PGRank) PGRow {
	row := PGRow{Rank: p.Rank, W: p, StartMonth: -1, StartDay: -1, StartNanos: -1}
	if p.File != "" {
		row.Host, row.Pid = j.process(p)
	}
	if f.Comm != nil {
		row.Member = f.Comm.member(p.Rank, row.Host, row.Pid)
		if row.Member != nil {
			row.Host, row.Pid = row.Member.Host, row.Member.Pid
		}
	}
	if p.TimedOut >= 0 && p.TimedOut == f.Seq {
		if f.OpType == "" {
			f.OpType = p.OpType
		}
		row.StartMonth, row.StartDay, row.StartNanos = start(p)
		if row.StartNanos >= 0 && (f.StartNanos < 0 || earlier(row, f)) {
			f.StartMonth, f.StartDay, f.StartNanos = row.StartMonth, row.StartDay, row.StartNanos
		}
	}
	return row
}

func earlier(r PGRow, f *PGFinding) bool {
	a := [3]int64{r.StartMonth, r.StartDay, r.StartNanos}
	b := [3]int64{f.StartMonth, f.StartDay, f.StartNanos}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// member is g's rank rank: the one of process host:pid where that is known.
func (g *Group) member(rank int64, host string, pid int64) *Member {
	for _, m := range g.Members {
		if host != "" && (m.Host != host || m.Pid != pid) {
			continue
		}
		if m.Rank == rank || host != "" && m.Rank < 0 {
			return m
		}
	}
	return nil
}

func maxRank(ps []*PGRank) int64 {
	top := int64(-1)
	for _, p := range ps {
		top = max(top, p.Rank)
	}
	return top
}

// missingRanks are the ranks without a watchdog line that the group is known to have: the
// ranks of its communicator that have NCCL lines, or (none known) the gaps below the highest
// rank seen; none where no rank timed out, or where they would outnumber the ranks with lines (a log of some ranks' output
// says nothing of the others).
func missingRanks(seen map[int64]bool, comm *Group, seq int64) []int64 {
	var out []int64
	switch {
	case seq < 0:
		return nil // no rank timed out: nothing the others would have waited for
	case comm != nil:
		for _, m := range comm.Members {
			if m.Rank >= 0 && !seen[m.Rank] && !slices.Contains(out, m.Rank) {
				out = append(out, m.Rank)
			}
		}
	default:
		var n int64
		for rk := range seen {
			n = max(n, rk+1)
		}
		if n-int64(len(seen)) > int64(len(seen)) {
			return nil // before counting them: a rank number can be as large as the log says
		}
		for rk := int64(0); rk < n; rk++ {
			if !seen[rk] {
				out = append(out, rk)
			}
		}
	}
	if len(out) > len(seen) {
		return nil
	}
	slices.Sort(out)
	return out
}

package ranks

import "slices"

// edgesOf says where g's ranks start and stop: excerpt, the lines do not hold the communicator
// from its first call (an opCount above 0 at the first call and no Init line, or ranks that
// start at different calls); startsDiffer and endsDiffer, the ranks that issued calls start,
// or stop, at different calls.
func edgesOf(g *Group) (excerpt, startsDiffer, endsDiffer bool) {
	for _, m := range g.Members {
		if m.Calls > 0 && m.rankFrom != rankInit && m.FirstOp() > 0 {
			excerpt = true
		}
	}
	startsDiffer = spread(g, func(m *Member) int64 { return m.Start })
	endsDiffer = spread(g, (*Member).Through)
	return excerpt || startsDiffer, startsDiffer, endsDiffer
}

// cutFrom returns the call from which on g's ranks stop where the input ends rather than
// where they hung (Coverage.CutFrom), or -1. That is so:
//   - in an excerpt, for every rank, where they stop at three or more calls, or at two where
//     only one rank got furthest and they also start at different calls or some of the
//     communicator's ranks have no line (cutShape);
//   - in a log that holds the communicator from its first call but ends while the job still
//     issues calls (still running, stopped by a time limit, or cut with head), for the ranks
//     that stop in one pack at three or more calls, or at two or more calls ahead of ranks
//     far behind them (inFlight);
//   - for every rank, where the input ends in such a way for each rank's process on another
//     communicator (Member.procCut; withProcs false leaves this out).
//
// The last two hold only where no rank behind the furthest ended its communicator with
// Destroy or Abort: its calls were over.
func cutFrom(g *Group, excerpt, startsDiffer, endsDiffer, withProcs bool) (int64, CutWhy) {
	if !endsDiffer {
		return -1, "" // before its ranks' ends are listed: most communicators of a log
	}
	ends := endsOf(g, excerpt)
	switch {
	case excerpt && cutShape(g, startsDiffer):
		return ends[0], CutExcerpt
	case !liveBehind(g):
		return -1, ""
	case !excerpt:
		if from := inFlight(ends); from >= 0 {
			return from, CutInFlight
		}
	}
	if withProcs && procsCut(g) {
		return ends[0], CutProcs
	}
	return -1, ""
}

// CutWhy says why the input's end explains where ranks stop (Coverage.CutFrom).
type CutWhy string

const (
	// CutExcerpt: an excerpt cuts the ranks' lines.
	CutExcerpt CutWhy = "excerpt"
	// CutInFlight: the log ends while the ranks issue calls, a few calls apart.
	CutInFlight CutWhy = "log-ends-in-calls"
	// CutProcs: the log ends while every rank's process issues calls on another communicator.
	CutProcs CutWhy = "processes-in-calls"
)

// endsOf are the calls g's ranks stop at, sorted, each once: of the ranks that issued calls
// in an excerpt, of every rank otherwise (a rank without a call stops before call 0).
func endsOf(g *Group, excerpt bool) []int64 {
	var ends []int64
	for _, m := range g.Members {
		if m.Calls > 0 || !excerpt {
			ends = append(ends, m.Through())
		}
	}
	slices.Sort(ends)
	return slices.Compact(ends)
}

// cutShape reports whether an excerpt's ranks' ends look cut rather than hung (see cutFrom).
// A hang leaves every rank but the culprits waiting at one call; where one rank alone got
// there and ranks are missing from the excerpt, nothing shows the others waiting, and an
// excerpt that ends as its ranks print the next round of calls looks the same.
func cutShape(g *Group, startsDiffer bool) bool {
	ends := map[int64]int{}
	top := g.MaxCalls()
	for _, m := range g.Members {
		if m.Calls > 0 {
			ends[m.Through()]++
		}
	}
	return len(ends) > 2 || ends[top] < 2 && (startsDiffer || int64(len(g.Members)) < g.NRanks)
}

// inFlight returns where the pack of ranks that stop as a log ending while the job issues
// calls does begins, or -1 (see cutFrom). Ranks a few calls apart, as a job's ranks run
// between their syncs, stop in one pack when the log ends; a rank far behind the others
// stopped long before the log did. Two ends alone are a hang's shape (the ranks waiting at
// one call, the culprits behind), unless ranks far behind show that the others went on.
func inFlight(ends []int64) int64 {
	at := farBehind(ends)
	switch {
	case at == 0 && len(ends) > 2:
		return ends[0]
	case at > 0 && len(ends)-at > 1:
		return ends[at]
	}
	return -1
}

// farBehind returns the index of the first of the sorted ends ahead of ends far behind them:
// the widest gap, where it is farGap calls or more and more than twice the spread of the ends
// ahead of it; 0 where there is none.
func farBehind(ends []int64) int {
	at, gap := 0, int64(0)
	for i := 1; i < len(ends); i++ {
		if d := ends[i] - ends[i-1]; d > gap {
			at, gap = i, d
		}
	}
	if gap >= farGap && gap > 2*(ends[len(ends)-1]-ends[at]) {
		return at
	}
	return 0
}

// farGap is the fewest calls between ranks' ends that farBehind counts as far.
const farGap = 16

// liveBehind reports whether every rank behind the furthest still had its communicator when
// the input ends (no Destroy or Abort).
func liveBehind(g *Group) bool {
	top := g.MaxCalls()
	for _, m := range g.Members {
		if m.Through() < top && m.end != endNone {
			return false
		}
	}
	return true
}

// procsCut reports whether the input ends while every rank's process issues calls on another
// communicator (Member.procCut).
func procsCut(g *Group) bool {
	for _, m := range g.Members {
		if !m.procCut {
			return false
		}
	}
	return len(g.Members) > 0
}

// markCut sets Member.procCut: the process stops on some communicator where the input ends,
// by that communicator's own shape (cutFrom without other communicators).
func markCut(gs []*Group) {
	cut := map[procKey]bool{}
	for _, g := range gs {
		excerpt, starts, ends := edgesOf(g)
		from, _ := cutFrom(g, excerpt, starts, ends, false)
		if from < 0 {
			continue
		}
		for _, m := range g.Members {
			if m.Through() >= from { // one lookup a member: its key hashes two strings
				cut[m.proc()] = true
			}
		}
	}
	for _, g := range gs {
		for _, m := range g.Members {
			m.procCut = cut[m.proc()]
		}
	}
}

// spread reports whether f differs between the ranks that issued calls.
func spread(g *Group, f func(*Member) int64) bool {
	first, seen := int64(0), false
	for _, m := range g.Members {
		if m.Calls == 0 {
			continue
		}
		if seen && f(m) != first {
			return true
		}
		first, seen = f(m), true
	}
	return false
}

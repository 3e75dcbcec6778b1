package ranks

import "slices"

// Coverage says how much of a communicator the input holds, so that a verdict can be read
// against it: which ranks have lines, which nodes, and where in the call sequence they start
// and stop.
type Coverage struct {
	NRanks  int64
	Present int64 // ranks with lines
	// Absent are the ranks without a line, where every present rank's number is known; AbsentN
	// counts them either way.
	Absent  []int64
	AbsentN int64
	// Nodes is how many nodes the communicator spans (the layout line's nNodes, or NRanks over
	// the ranks per host), NodesSeen how many of them have a present rank and NodeRanks the
	// ranks of those nodes; 0 / nil where unknown.
	Nodes, NodesSeen, LocalRanks int64
	NodeRanks                    []int64
	// First and Last are the first and the last position of the sequence any rank's lines
	// hold; FirstStep and LastStep their steps (-1: none).
	First, Last         int64
	FirstStep, LastStep int64
	// StartsDiffer: the ranks' lines start at different calls; EndsDiffer: they stop at
	// different calls. Excerpt: the lines do not hold the communicator from its first call
	// (an opCount above 0 at the first call, no Init line).
	StartsDiffer, EndsDiffer, Excerpt bool
	// CutFrom: the ranks that stop at this call or later stop where the input ends, not where
	// they hung (-1: none; see cutFrom): where an excerpt cuts them, or where the log ends
	// while the job still issues calls. EndsCut: that explains every rank's end. (A hang's
	// shape: the ranks waiting at one call, the culprits behind at another.)
	CutFrom int64
	CutWhy  CutWhy
	EndsCut bool
	// Conflict says why the ranks cannot be one communicator ("" when they can): more
	// processes than it has ranks, or two with the same rank.
	Conflict string
	// Truncated: some of its ranks are counted in the overflow only (Group.Truncated), so
	// hang and check give no verdict on it.
	Truncated bool
}

// Cover returns how much of g the input holds.
func (r *Ranks) Cover(g *Group) Coverage {
	r.settle()
	c := Coverage{NRanks: g.NRanks, Present: int64(len(g.Members)), FirstStep: -1, LastStep: -1, First: -1}
	c.Absent, c.AbsentN = absentRanks(g)
	c.Conflict = conflict(g)
	c.Truncated = g.truncated
	for _, m := range g.Members {
		if m.Calls == 0 {
			continue
		}
		if c.First < 0 || m.Start < c.First {
			c.First = m.Start
		}
		c.Last = max(c.Last, m.Through()-1)
	}
	c.Excerpt, c.StartsDiffer, c.EndsDiffer = edgesOf(g)
	c.CutFrom, c.CutWhy = cutFrom(g, c.Excerpt, c.StartsDiffer, c.EndsDiffer, true)
	c.EndsCut = c.cutsAll(g)
	if c.First >= 0 {
		c.FirstStep, c.LastStep = g.StepOf(c.First), g.StepOf(c.Last)
	}
	r.nodes(g, &c)
	return c
}

// cutsAll reports whether CutFrom explains every rank's end (of those with calls, in an
// excerpt).
func (c *Coverage) cutsAll(g *Group) bool {
	if c.CutFrom < 0 {
		return false
	}
	for _, m := range g.Members {
		if (m.Calls > 0 || !c.Excerpt) && !c.Cut(m) {
			return false
		}
	}
	return true
}

// Cut reports whether m stops where the input ends rather than where it hung (CutFrom).
func (c *Coverage) Cut(m *Member) bool { return c.CutFrom >= 0 && m.Through() >= c.CutFrom }

// nodes fills in the node counts: the layout line's, or the most ranks any host holds.
func (r *Ranks) nodes(g *Group, c *Coverage) {
	// Ranks in rank order run host by host: a run's count is added to the map at once. The
	// map is sized for the runs (at least the hosts): grown an insert at a time, rehashing
	// was most of the time this took on a communicator of thousands of ranks.
	runs := 0
	for i, ms := range g.Members {
		if i == 0 || ms.Host != g.Members[i-1].Host {
			runs++
		}
	}
	perHost := make(map[string]int64, runs)
	for i, ms := 0, g.Members; i < len(ms); {
		j := i + 1
		for j < len(ms) && ms[j].Host == ms[i].Host {
			j++
		}
		perHost[ms[i].Host] += int64(j - i)
		i = j
	}
	c.LocalRanks = g.LocalRanks
	if c.LocalRanks <= 0 {
		c.LocalRanks = guessLocal(perHost)
	}
	if c.LocalRanks <= 0 || g.NRanks%c.LocalRanks != 0 {
		c.LocalRanks = 0
		return
	}
	c.Nodes = g.NRanks / c.LocalRanks
	if g.Nodes > 0 {
		c.Nodes = g.Nodes
	}
	c.NodesSeen = int64(len(perHost))
	if len(c.Absent) == int(c.AbsentN) {
		c.NodeRanks = nodeRanks(g, c.LocalRanks)
	}
}

// guessLocal is the ranks per node where no layout line says it: the ranks each host holds,
// where two or more hosts hold the same number, or one host more than one; else 0 (one rank
// on one host says nothing about the others).
func guessLocal(perHost map[string]int64) int64 {
	var n int64
	for _, v := range perHost {
		if n != 0 && v != n {
			return 0
		}
		n = v
	}
	if len(perHost) < 2 && n < 2 {
		return 0
	}
	return n
}

// nodeRanks are the ranks of the nodes with a present rank, where ranks are laid out node by
// node (rank / localRanks is the node).
func nodeRanks(g *Group, local int64) []int64 {
	if byRank(g) {
		return nodeRanksSorted(g, local)
	}
	return nodeRanksByMap(g, local)
}

// nodeRanksByMap is nodeRanks of ranks in any order.
func nodeRanksByMap(g *Group, local int64) []int64 {
	seen := map[int64]bool{}
	for _, m := range g.Members {
		seen[m.Rank/local] = true
	}
	var out []int64
	for rk := int64(0); rk < g.NRanks; rk++ {
		if seen[rk/local] {
			out = append(out, rk)
		}
	}
	return out
}

// SomeNodes reports whether the input covers only some of the communicator's nodes: the log
// of some nodes, whose ranks are not judged.
func (c *Coverage) SomeNodes() bool { return c.Nodes > 1 && c.NodesSeen < c.Nodes }

// JudgedAbsent are the absent ranks on the nodes the input covers (all of them where the nodes
// are not known), and how many they are (also where their numbers are not known).
func (c *Coverage) JudgedAbsent() ([]int64, int64) {
	if !c.SomeNodes() {
		return c.Absent, c.AbsentN
	}
	if len(c.Absent) != int(c.AbsentN) {
		return nil, max(c.AbsentN-(c.Nodes-c.NodesSeen)*c.LocalRanks, 0)
	}
	var out []int64
	for _, rk := range c.Absent {
		if _, ok := slices.BinarySearch(c.NodeRanks, rk); ok {
			out = append(out, rk)
		}
	}
	return out, int64(len(out))
}

// absentRanks are the ranks 0..NRanks-1 no line was seen from (where every present rank's
// number is known; at most 64 are listed), and how many there are.
func absentRanks(g *Group) ([]int64, int64) {
	if byRank(g) {
		return absentSorted(g)
	}
	return absentByMap(g)
}

// absentByMap is absentRanks of ranks in any order.
func absentByMap(g *Group) ([]int64, int64) {
	seen := make(map[int64]bool)
	known := true
	for _, m := range g.Members {
		known = known && m.Rank >= 0
		seen[m.Rank] = true
	}
	n := max(g.NRanks-int64(len(g.Members)), 0)
	if !known {
		return nil, n
	}
	var out []int64
	for rk := int64(0); rk < g.NRanks && len(out) < 64; rk++ {
		if !seen[rk] {
			out = append(out, rk)
		}
	}
	return out, n
}

// conflict says why g's ranks cannot be one communicator, or "".
func conflict(g *Group) string {
	if int64(len(g.Members)) > g.NRanks {
		return itoa(int64(len(g.Members))) + " processes used it, more than its " + itoa(g.NRanks) + " ranks: the input holds more than one job (or more than one run of it)"
	}
	shared := conflictByMap
	if byRank(g) {
		shared = conflictRank
	}
	if rk, ok := shared(g); ok {
		return "two processes are its rank " + itoa(rk) + ": the input holds more than one job (or more than one run of it)"
	}
	return ""
}

// conflictByMap is conflictRank of ranks in any order.
func conflictByMap(g *Group) (rank int64, ok bool) {
	seen := map[int64]bool{}
	for _, m := range g.Members {
		if m.Rank >= 0 && seen[m.Rank] {
			return m.Rank, true
		}
		seen[m.Rank] = true
	}
	return 0, false
}

package ranks

import (
	"fmt"
	"github.com/nccllog/nccllog/stages"
)

// check says whether s can be the ranks state of some logs: every communicator's size and
// counts in range, its ranks within it, each rank's kept calls within histCap.
func (s *RanksSnapshot) check() error {
	for i := range s.Groups {
		if err := s.Groups[i].check(); err != nil {
			return err
		}
	}
	if o := s.Over; o != nil {
		return stages.CheckCounts(" past the communicator cap", stages.Named{Name: "closed communicators", N: o.Closed}, stages.Named{Name: "ranks", N: o.Ranks})
	}
	return nil
}

func (g *GroupSnapshot) check() error {
	what := fmt.Sprintf("communicator %#x", g.Key.CommID)
	if err := stages.CheckCounts(" of "+what, stages.Named{Name: "ranks", N: g.NRanks}, stages.Named{Name: "nodes", N: g.Nodes}, stages.Named{Name: "ranks per node", N: g.LocalRanks}); err != nil {
		return err
	}
	for i := range g.Members {
		m := &g.Members[i]
		if m.Rank < -1 || g.NRanks > 0 && m.Rank >= g.NRanks {
			return stages.Damaged("%s of %d ranks holds rank %d", what, g.NRanks, m.Rank)
		}
		if err := stages.CheckCounts(fmt.Sprintf(" of %s rank %d", what, m.Rank), stages.Named{Name: "calls", N: m.Calls}, stages.Named{Name: "calls before its first", N: m.Start}); err != nil {
			return err
		}
		if n, err := expanded(m.Hist); err != nil || n > histCap {
			return stages.Damaged("%s rank %d keeps more than %d calls to align", what, m.Rank, histCap)
		}
		for op, v := range m.ByOp {
			if v == nil || v.Calls < 0 || v.Bytes < 0 || v.BusBytes < 0 {
				return stages.Damaged("%s rank %d's %s volume is negative", what, m.Rank, op)
			}
		}
	}
	return nil
}

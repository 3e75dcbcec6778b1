package stages

import "fmt"

// check says whether s can be the ranks state of some logs: every communicator's size and
// counts in range, its ranks within it, each rank's kept calls within histCap.
func (s *RanksSnapshot) check() error {
	for i := range s.Groups {
		if err := s.Groups[i].check(); err != nil {
			return err
		}
	}
	if o := s.Over; o != nil {
		return checkCounts(" past the communicator cap", named{"closed communicators", o.Closed}, named{"ranks", o.Ranks})
	}
	return nil
}

func (g *GroupSnapshot) check() error {
	what := fmt.Sprintf("communicator %#x", g.Key.CommID)
	if err := checkCounts(" of "+what, named{"ranks", g.NRanks}, named{"nodes", g.Nodes}, named{"ranks per node", g.LocalRanks}); err != nil {
		return err
	}
	for i := range g.Members {
		m := &g.Members[i]
		if m.Rank < -1 || g.NRanks > 0 && m.Rank >= g.NRanks {
			return damaged("%s of %d ranks holds rank %d", what, g.NRanks, m.Rank)
		}
		if err := checkCounts(fmt.Sprintf(" of %s rank %d", what, m.Rank), named{"calls", m.Calls}, named{"calls before its first", m.Start}); err != nil {
			return err
		}
		if n, err := expanded(m.Hist); err != nil || n > histCap {
			return damaged("%s rank %d keeps more than %d calls to align", what, m.Rank, histCap)
		}
		for op, v := range m.ByOp {
			if v == nil || v.Calls < 0 || v.Bytes < 0 || v.BusBytes < 0 {
				return damaged("%s rank %d's %s volume is negative", what, m.Rank, op)
			}
		}
	}
	return nil
}

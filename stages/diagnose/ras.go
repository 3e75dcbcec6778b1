package diagnose

import "strings"

// rasItem files a RAS report line: the outlier ranks it names, and whether a communicator's
// status or a finding says something is wrong (MISMATCH, INCOMPLETE, DEAD, ...).
func (b *builder) rasItem(it *Item, pos int) {
	if b.ras == nil {
		b.ras = newCand(KindRASReport, false)
	}
	c := b.ras
	switch it.Name {
	case "rank", "dead":
		c.add(it, pos, nil)
		if it.Rank >= 0 && !containsRank(c.ranks, it.Rank) {
			c.ranks = append(c.ranks, it.Rank)
		}
		c.fault = true
	case "comm_status", "finding":
		for _, w := range []string{"MISMATCH", "INCOMPLETE", "DEAD", "ERROR", "TIMEOUT", "different"} {
			if strings.Contains(it.Text, w) {
				c.add(it, pos, nil)
				c.fault = true
				return
			}
		}
	}
}

func containsRank(rs []int64, r int64) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

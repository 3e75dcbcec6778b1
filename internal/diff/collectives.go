package diff

import (
	"fmt"
	"strings"

	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/info"
	"github.com/nccllog/nccllog/stages/ranks"
)

// collectives compares per op the calls and bytes, the share of calls in each size bucket,
// the (op, count, datatype) groups one run has and the other not, and how evenly the ranks
// of the largest communicator share the bus volume. Where the runs have
// different numbers of ranks, calls and bytes are compared per rank (a total would only
// say that more ranks call more); otherwise as totals.
func collectives(l *list, a, b *Side) {
	ra, rb := rankCount(a.Info), rankCount(b.Info)
	per := ""
	if ra != rb && ra > 0 && rb > 0 {
		per = " per rank"
	} else {
		ra, rb = 1, 1
	}
	oa, ob := opRows(a.Stats), opRows(b.Stats)
	for _, op := range unionKeys(oa, ob) {
		x, y := oa[op], ob[op]
		l.count(op+" calls"+per, x.Calls/ra, y.Calls/rb)
		l.count(op+" bytes"+per, x.TotalBytes/ra, y.TotalBytes/rb)
	}
	l.keyedDiff("", histShares(a.Hist), histShares(b.Hist))
	l.setDiff("(op, count, dtype) groups", groupSet(a.Groups), groupSet(b.Groups))
	sa, oka := busSpread(a.Ranks)
	sb, okb := busSpread(b.Ranks)
	if oka && okb {
		l.measure("bus volume spread over the ranks of the largest communicator (max/min)", sa, sb, "")
	}
}

// busSpread is the most bus volume a rank of the largest communicator moved over the least
// (1: balanced), and false where no communicator has two ranks with bus volume. The largest
// is the one with the most ranks, then the most bus volume.
func busSpread(r ranks.RanksReport) (float64, bool) {
	var best *ranks.RankComm
	var bestBus float64
	for i := range r.Comms {
		c := &r.Comms[i]
		var bus float64
		for _, m := range c.Ranks {
			bus += m.BusBytes
		}
		if best == nil || c.NRanks > best.NRanks || (c.NRanks == best.NRanks && bus > bestBus) {
			best, bestBus = c, bus
		}
	}
	if best == nil || len(best.Ranks) < 2 {
		return 0, false
	}
	lo, hi := best.Ranks[0].BusBytes, best.Ranks[0].BusBytes
	for _, m := range best.Ranks {
		lo, hi = min(lo, m.BusBytes), max(hi, m.BusBytes)
	}
	if lo <= 0 {
		return 0, false
	}
	return hi / lo, true
}

// rankCount is how many ranks the run's processes drive in their largest communicators.
func rankCount(r *info.InfoReport) int64 {
	var n int64
	for _, p := range r.Ranks {
		n += int64(max(len(p.Ranks), 1))
	}
	return n
}

func opRows(s agg.StatsReport) map[string]agg.StatRow {
	out := map[string]agg.StatRow{}
	for _, r := range s.Ops {
		out[r.Op] = r
	}
	return out
}

// histShares is, per op, the share of its calls in each size bucket, in whole percent.
func histShares(h agg.HistReport) map[string]string {
	total := map[string]int64{}
	for _, b := range h.Buckets {
		total[b.Op] += b.Calls
	}
	parts := map[string][]string{}
	for _, b := range h.Buckets {
		if b.Calls == 0 {
			continue
		}
		k := b.Op + " sizes"
		parts[k] = append(parts[k], fmt.Sprintf("%s %.0f%%", b.AWKBucket(), 100*float64(b.Calls)/float64(total[b.Op])))
	}
	out := map[string]string{}
	for k, p := range parts {
		out[k] = strings.Join(p, ", ")
	}
	return out
}

func groupSet(r agg.Report) map[string]struct{} {
	s := map[string]struct{}{}
	for _, g := range r.Groups {
		s[fmt.Sprintf("%s %d %s", g.Op, g.Count, g.Dtype)] = struct{}{}
	}
	return s
}

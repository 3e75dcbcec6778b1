package diagnose

import (
	"fmt"
	"slices"
	"strings"
)

// A rank whose watchdog times out at an earlier work than the others' stopped at a
// collective they had finished: they went on to later calls and timed out there, waiting for
// it. Work numbers of one process group count each rank's calls alike, so the rank at the
// lowest is the one behind (its process or GPU stuck there, or its calls out of step):
//
//	what():  [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, Timeout(ms)=1800000) ran for 1806521 milliseconds before timing out.
//	[E ProcessGroupNCCL.cpp:821] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1806882 milliseconds before timing out.

// watchLagging is the behind finding of the ranks whose timeouts w name the lowest work, nil
// where the timeouts name one work, a group other than the default (or a group's own rank),
// two works of one rank, or put more than half of the ranks at the lowest.
func watchLagging(w *cand) *cand {
	its := watchItems(w.items)
	seq := map[int64]int64{}
	for _, it := range its {
		if it.Rank < 0 || it.GroupRank || it.Group > 1 || messageRank(it) != it.Rank {
			return nil // a group's rank or work: another group's count than the default's
		}
		if s, ok := seq[it.Rank]; ok && s != it.Seq {
			return nil // a rank's two works: its groups' counts, not one order
		}
		seq[it.Rank] = it.Seq
	}
	if len(seq) < 2 {
		return nil
	}
	low := slices.Min(mapValues(seq))
	var lag []int64
	var ahead []*Item
	for _, it := range its {
		if it.Seq == low {
			if !slices.Contains(lag, it.Rank) {
				lag = append(lag, it.Rank)
			}
		} else if !slices.ContainsFunc(ahead, func(o *Item) bool { return o.Rank == it.Rank }) {
			ahead = append(ahead, it)
		}
	}
	if len(ahead) == 0 || len(lag)*2 > len(seq) {
		return nil
	}
	c := newCand(KindBehind, true) // the timeouts prove the fault; the sentence says whose it likely is
	for _, it := range w.items {
		c.add(it, w.order, nil)
	}
	c.order, c.at = w.order, w.at
	c.ranks, c.onlyRanks = sortedRanks(lag), true
	c.summary = watchLaggingSummary(c.ranks, its, ahead)
	return c
}

// messageRank is the rank a watchdog item's message names (its text's `rank N:`), which a
// launcher's `[rankN]:` label puts aside for the global rank: where they differ, the
// message's is a process group's. -1 where the text names none.
func messageRank(it *Item) int64 {
	rest, ok := strings.CutPrefix(it.Text, "rank ")
	if !ok {
		return -1
	}
	v, n := decimalAt([]byte(rest))
	if n == 0 || n >= len(rest) || rest[n] != ':' {
		return -1
	}
	return v
}

// watchLaggingSummary says which ranks timed out at the lowest work, and where the others did.
func watchLaggingSummary(lag []int64, its, ahead []*Item) string {
	var at *Item
	for _, it := range its {
		if it.Rank == lag[0] {
			at = it
			break
		}
	}
	in := workName(at)
	if op := watchOp(at); op != "" {
		in = op + " (" + in + ")"
	}
	who := rankWords(lag)
	var others []int64
	for _, it := range ahead {
		others = append(others, it.Rank)
	}
	they := "they"
	if len(others) == 1 {
		they = "it"
	}
	return fmt.Sprintf("%s timed out in %s, a collective %s had finished: %s timed out later (%s). %s behind (%s process or GPU stuck there, or %s calls out of step with the others').",
		capitalized(who), in, rankWords(sortedRanks(others)), they, worksByRank(ahead), capitalized(isAre(who, len(lag))), pronoun(len(lag)), pronoun(len(lag)))
}

// mapValues are m's values, in no order.
func mapValues(m map[int64]int64) []int64 {
	out := make([]int64, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

package diagnose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// sharedWatchTail ends the sentence of a shared watchdog finding: what the ranks' timeouts
// together point to.
const sharedWatchTail = ": a cause they share (the network, or a stall outside NCCL)."

// maxWatchRanks and maxWatchSeqs bound the ranks and works a shared watchdog sentence lists.
const (
	maxWatchRanks = 4
	maxWatchSeqs  = 4
)

// sharedWatchSummary is the sentence of a watchdog finding every rank took part in. It says
// "the same collective" only where the ranks' timeouts name one work: the same SeqNum, and
// the same process group and op wherever lines name them. Otherwise it says how many works
// timed out, which rank's, and the first to time out where the lines are timed: the ranks
// may wait in different process groups, and no one collective is to blame.
func sharedWatchSummary(c *cand) string {
	its := watchItems(c.items)
	works := distinctWorks(its)
	if works <= 1 {
		return everyRankOf(c) + " timed out in the same collective with no other error" + sharedWatchTail
	}
	if s := sameSeqOtherOps(c, its); s != "" {
		return s
	}
	s := everyRankOf(c) + fmt.Sprintf(" timed out with no other error, but in %d different collectives, not one (", works)
	if op := oneOp(its); op != "" {
		s += "all " + op + "; "
	}
	s += worksByRank(its)
	if first := firstTimedOut(its); first != nil {
		t, _ := FormatTime(first.Time.Stamp)
		s += fmt.Sprintf("; the first at %s, rank %d at %s", t, first.Rank, workName(first))
	}
	return s + ")" + sharedWatchTail
}

// everyRankOf names the ranks of a shared watchdog finding c, and the processes Ray folded
// into its lines where there are some.
func everyRankOf(c *cand) string {
	if s := repeatsNote(c); s != "" {
		return "Every rank the log shows (" + s + ")"
	}
	return everyRank(c.ranks)
}

// everyRank names the ranks of a shared watchdog finding: "Every rank (4)", or, where a rank's
// number shows the job has more ranks than the log's lines name (an excerpt, or one node's
// lines: ranks 13 and 15), "Every rank the log shows (2 of at least 16)".
func everyRank(ranks []int64) string {
	top := int64(-1)
	for _, r := range ranks {
		top = max(top, r)
	}
	if top < int64(len(ranks)) {
		return fmt.Sprintf("Every rank (%d)", len(ranks))
	}
	return fmt.Sprintf("Every rank the log shows (%d of at least %d)", len(ranks), top+1)
}

// watchItems are the watchdog lines that name a work.
func watchItems(items []*Item) []*Item {
	var out []*Item
	for _, it := range items {
		if it.Ev == evWatchdog && it.Seq >= 0 {
			out = append(out, it)
		}
	}
	return out
}

// distinctWorks counts the works the lines name: by process group and SeqNum, a line with no
// group taken as one that names any group its SeqNum has elsewhere; lines of one SeqNum that
// name different ops are different works.
func distinctWorks(its []*Item) int {
	type work struct {
		group int32
		seq   int64
	}
	seen := map[work]bool{}
	for _, it := range its {
		if it.Group != 0 {
			seen[work{it.Group, it.Seq}] = true
		}
	}
	for _, it := range its {
		if it.Group == 0 && !slices.ContainsFunc(its, func(o *Item) bool { return o.Group != 0 && o.Seq == it.Seq }) {
			seen[work{0, it.Seq}] = true
		}
	}
	if len(seen) == 1 && len(opsOf(its)) > 1 {
		return len(opsOf(its))
	}
	return len(seen)
}

// opsOf is the distinct ops the lines name, in order.
func opsOf(its []*Item) []string {
	var ops []string
	for _, it := range its {
		if op := watchOp(it); op != "" && !slices.Contains(ops, op) {
			ops = append(ops, op)
		}
	}
	return ops
}

// oneOp is the op every line that names one names, "" where they differ or none does.
func oneOp(its []*Item) string {
	if ops := opsOf(its); len(ops) == 1 {
		return ops[0]
	}
	return ""
}

// watchOp reads the op back from the item's text, "rank R: watchdog E at work S (OP), ..."
// or "... (OP, NumelIn N, NumelOut M), ...".
func watchOp(it *Item) string {
	op, _ := watchCall(it)
	if op, _, ok := strings.Cut(op, ", "); ok {
		return op
	}
	return op
}

// watchCall reads the op and its element counts back from the item's text: "OP, NumelIn N,
// NumelOut M" (or "OP" where the line printed no counts), and whether the text names one.
func watchCall(it *Item) (string, bool) {
	_, rest, ok := strings.Cut(it.Text, " (")
	if !ok {
		return "", false
	}
	call, _, ok := strings.Cut(rest, ")")
	return call, ok
}

// workName is "SeqNum 5", or "PG 1 SeqNum 5" where the line names its group.
func workName(it *Item) string {
	if it.Group != 0 {
		return "PG " + strconv.Itoa(int(it.Group)-1) + " SeqNum " + strconv.FormatInt(it.Seq, 10)
	}
	return "SeqNum " + strconv.FormatInt(it.Seq, 10)
}

// worksByRank lists each rank's works: "rank 0 at SeqNum 3, 5; rank 7 at PG 1 SeqNum 9", a
// few ranks and works each.
func worksByRank(its []*Item) string {
	var ranks []int64
	byRank := map[int64][]*Item{}
	for _, it := range its {
		if !slices.Contains(ranks, it.Rank) {
			ranks = append(ranks, it.Rank)
		}
		byRank[it.Rank] = append(byRank[it.Rank], it)
	}
	slices.Sort(ranks)
	parts := capped(ranks, maxWatchRanks, func(r int64) string { return fmt.Sprintf("rank %d at %s", r, seqList(byRank[r])) },
		func(n int) string { return fmt.Sprintf("%d more ranks", n) })
	return strings.Join(parts, "; ")
}

// seqList names one rank's works by group, "SeqNum 3, 5, 9" or "PG 1 SeqNum 3; PG 2 SeqNum
// 3", sorted, a few of them.
func seqList(its []*Item) string {
	var groups []int32
	seqs := map[int32][]int64{}
	for _, it := range its {
		if !slices.Contains(groups, it.Group) {
			groups = append(groups, it.Group)
		}
		if !slices.Contains(seqs[it.Group], it.Seq) {
			seqs[it.Group] = append(seqs[it.Group], it.Seq)
		}
	}
	slices.Sort(groups)
	var parts []string
	for _, g := range groups {
		ss := seqs[g]
		slices.Sort(ss)
		nums := capped(ss, maxWatchSeqs, func(q int64) string { return strconv.FormatInt(q, 10) },
			func(n int) string { return fmt.Sprintf("and %d more", n) })
		head := "SeqNum "
		if g != 0 {
			head = "PG " + strconv.Itoa(int(g)-1) + " SeqNum "
		}
		parts = append(parts, head+strings.Join(nums, ", "))
	}
	return strings.Join(parts, ", ")
}

// firstTimedOut is the line that timed out first by the log's clock, nil where the lines are
// not timed alike.
func firstTimedOut(its []*Item) *Item {
	var first *Item
	for _, it := range its {
		if it.Time.IsZero() {
			continue
		}
		if first != nil && !comparable(it.Time.Stamp, first.Time.Stamp) {
			return nil
		}
		if first == nil || it.Time.Nanos < first.Time.Nanos {
			first = it
		}
	}
	return first
}

// capped names the first limit of xs, and the rest by their number (more), as a list's parts.
func capped[T any](xs []T, limit int, name func(T) string, more func(n int) string) []string {
	parts := make([]string, 0, min(len(xs), limit+1))
	for i, x := range xs {
		if i == limit {
			return append(parts, more(len(xs)-i))
		}
		parts = append(parts, name(x))
	}
	return parts
}

// sameSeqOtherOps is the sentence of ranks whose timeouts name one SeqNum but different ops:
// at the same position of their calls the ranks called different collectives (`rank 3
// ALLREDUCE, rank 7 BROADCAST`), a mismatch of the program's order of calls, which no network
// explains. "" where the lines name several SeqNums or one op.
func sameSeqOtherOps(c *cand, its []*Item) string {
	group := int32(0)
	for _, it := range its {
		if it.Group != 0 && group != 0 && it.Group != group {
			return "" // works of different process groups share SeqNums
		}
		group = max(group, it.Group)
	}
	if len(its) == 0 || len(opsOf(its)) < 2 || slices.ContainsFunc(its, func(it *Item) bool { return it.Seq != its[0].Seq }) {
		return ""
	}
	var who []string
	var seen []int64
	for _, it := range its {
		if op := watchOp(it); op != "" && !slices.Contains(seen, it.Rank) && len(who) < maxWatchRanks {
			seen = append(seen, it.Rank)
			who = append(who, fmt.Sprintf("rank %d %s", it.Rank, op))
		}
	}
	return everyRankOf(c) + fmt.Sprintf(" timed out at the same call, work %d, but in different collectives (%s): "+
		"the ranks called different collectives at one position of their calls (a mismatch in the program's order of collectives), not a network stall.",
		its[0].Seq, strings.Join(who, ", "))
}

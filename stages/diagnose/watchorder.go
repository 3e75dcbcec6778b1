package diagnose

import (
	"fmt"
	"slices"
	"strings"
)

// Where the job's only evidence is PyTorch's watchdog timing out on the ranks, the timeouts
// that name one work (a SeqNum of one process group) may name different calls: another op,
// or the same op with other element counts,
//
//	[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=13807, OpType=ALLREDUCE, NumelIn=11274112, NumelOut=11274112, ...)
//	[Rank 7] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=13807, OpType=ALLREDUCE, NumelIn=10942336, NumelOut=10942336, ...)
//
// At one position of their calls the ranks called different collectives: a mismatch of the
// program's calls, which no network explains, and the reason each waited for the others. The
// ranks on the smaller side are the finding's; where no side is smaller, it is shared.

// watchMismatch is the mismatch finding of the watchdog timeouts w, nil where they name one
// call at their work, or more than one work, or a rank names two calls.
func watchMismatch(w *cand) *cand {
	its := watchItems(w.items)
	if len(its) < 2 || slices.ContainsFunc(its, func(it *Item) bool { return it.Seq != its[0].Seq || it.Group != its[0].Group }) {
		return nil
	}
	byRank, counted := rankCalls(its)
	if byRank == nil {
		return nil
	}
	var calls []string
	sides := map[string][]int64{}
	for _, r := range sortedRanks(mapKeys(byRank)) {
		call := byRank[r]
		if !counted {
			call, _, _ = strings.Cut(call, ", ") // the op alone, where a rank's line printed no counts
		}
		if !slices.Contains(calls, call) {
			calls = append(calls, call)
		}
		sides[call] = append(sides[call], r)
	}
	if len(calls) < 2 {
		return nil
	}
	slices.SortStableFunc(calls, func(a, b string) int { return len(sides[a]) - len(sides[b]) })
	c := newCand(KindMismatch, true)
	for _, it := range w.items {
		c.add(it, w.order, nil)
	}
	c.order, c.at = w.order, w.at
	if small := sides[calls[0]]; len(small) < len(sides[calls[1]]) {
		c.ranks = small
	} else {
		c.ranks, c.shared = sortedRanks(mapKeys(byRank)), true
	}
	c.summary = watchMismatchSummary(c, its[0], calls, sides)
	return c
}

// rankCalls is each rank's call at the work ("OP, NumelIn N, NumelOut M", or "OP" where its
// lines printed no counts), and whether every rank's names its counts; nil where a rank's
// lines name two ops or two counts (not one call), or fewer than two ranks name one.
func rankCalls(its []*Item) (map[int64]string, bool) {
	byRank := map[int64]string{}
	for _, it := range its {
		call, ok := watchCall(it)
		if !ok || it.Rank < 0 {
			continue
		}
		had, seen := byRank[it.Rank]
		switch {
		case !seen || !strings.Contains(had, ", ") && strings.HasPrefix(call, had+", "):
			byRank[it.Rank] = call // the first, or one that adds its counts
		case had != call && (strings.Contains(call, ", ") || !strings.HasPrefix(had, call+", ")):
			return nil, false // not the op alone of the call it had
		}
	}
	if len(byRank) < 2 {
		return nil, false
	}
	counted := true
	for _, call := range byRank {
		counted = counted && strings.Contains(call, ", ")
	}
	return byRank, counted
}

// mapKeys is m's keys.
func mapKeys(m map[int64]string) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// watchMismatchSummary says which ranks called what at the work.
func watchMismatchSummary(c *cand, at *Item, calls []string, sides map[string][]int64) string {
	var parts []string
	for _, call := range calls {
		parts = append(parts, fmt.Sprintf("%s %s", rankWords(sortedRanks(sides[call])), call))
	}
	head := "The ranks"
	if !c.shared {
		head = capitalized(rankWords(c.ranks))
	}
	return fmt.Sprintf("%s called a different collective than the others at the same call, %s (%s): the ranks' calls differ at one position of the program (a mismatch), and each waited for the others until its watchdog timed out.",
		head, workName(at), strings.Join(parts, "; "))
}

// rankWords is "rank 7" or "ranks 1, 5 and 6", a few of them.
func rankWords(rs []int64) string {
	if len(rs) == 1 {
		return fmt.Sprintf("rank %d", rs[0])
	}
	parts := capped(rs, maxWatchRanks, func(r int64) string { return fmt.Sprint(r) }, func(n int) string { return fmt.Sprintf("%d more", n) })
	return "ranks " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// capitalized is s with its first letter upper-case.
func capitalized(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// A rank whose collective hangs times out with the others: where the timeouts of one work
// name every rank of the job but one or a few, those few did not wait in it. They are the
// ranks the others waited for, behind them or busy outside NCCL (rank 0 still validating
// while ranks 1-3 time out in the next BROADCAST):
//
//	[E ProcessGroupNCCL.cpp:828] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=10792, OpType=BROADCAST, ...)
//	[E ProcessGroupNCCL.cpp:828] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=10792, OpType=BROADCAST, ...)
//	[E ProcessGroupNCCL.cpp:828] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=10792, OpType=BROADCAST, ...)
//
// The job's size is the widest communicator's where the log shows one, else one more than the
// highest rank that timed out. An excerpt may have cut a rank's line; the sentence says so.

// watchMissing is the behind finding of the ranks the timeouts w leave out, nil where the
// timeouts name fewer than two ranks, more than one work, a group other than the default, or
// leave out none or more than a quarter of the job.
func watchMissing(w *cand, world int64) *cand {
	var timed []int64
	var its []*Item
	for _, it := range w.items {
		if it.Ev != evWatchdog || it.Rank < 0 {
			continue
		}
		if it.GroupRank || it.Group > 1 {
			return nil // a group's ranks, not the job's
		}
		its = append(its, it)
		if !slices.Contains(timed, it.Rank) {
			timed = append(timed, it.Rank)
		}
	}
	if len(timed) < 2 || distinctWorks(watchItems(its)) > 1 || len(opsOf(its)) > 1 {
		return nil // one rank's timeout alone may be all the paste kept of several
	}
	top := slices.Max(timed)
	if world <= 0 {
		world = top + 1
	}
	if top >= world || world > maxMissingWorld {
		return nil
	}
	var missing []int64
	for r := int64(0); r < world; r++ {
		if !slices.Contains(timed, r) {
			missing = append(missing, r)
		}
	}
	if len(missing) == 0 || int64(len(missing))*4 > world {
		return nil
	}
	c := newCand(KindBehind, true) // the timeouts prove the fault; the sentence says whose it likely is
	for _, it := range w.items {
		c.add(it, w.order, nil)
	}
	c.order, c.at = w.order, w.at
	c.ranks, c.onlyRanks = missing, true
	c.summary = watchMissingSummary(missing, sortedRanks(timed), its)
	return c
}

// maxMissingWorld bounds the job a missing rank is looked for in: a few ranks of thousands
// are as likely cut from the log as not.
const maxMissingWorld = 64

// watchMissingSummary says which ranks did not time out while the others did, and in what.
func watchMissingSummary(missing, timed []int64, its []*Item) string {
	in, others := "the same collective", "the others"
	if op := oneOp(its); op != "" {
		in += " (" + op
		if its[0].Seq >= 0 {
			in += " at " + workName(its[0])
		}
		in += ")"
	}
	who := rankWords(missing)
	return fmt.Sprintf("%s printed no watchdog timeout while %s timed out in %s: %s likely the one %s waited for, behind or busy outside NCCL (validation, data loading, a checkpoint), unless %s lines are missing from the log.",
		capitalized(who), rankWords(timed), in, isAre(who, len(missing)), others, pronoun(len(missing)))
}

// isAre is "rank 0 is" or "ranks 0 and 4 are".
func isAre(who string, n int) string {
	if n == 1 {
		return who + " is"
	}
	return who + " are"
}

// pronoun is "its" or "their".
func pronoun(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}

// watchWaitNote ends the sentence of timeouts that are the first fault but not every rank's:
// where the lines name one work, the ranks that timed out waited in it for a rank the log
// does not show. "" where they name no work or several.
func watchWaitNote(c *cand) string {
	its := watchItems(c.items)
	if len(its) == 0 || distinctWorks(its) > 1 || len(opsOf(its)) > 1 {
		return ""
	}
	in := workName(its[0])
	if op := oneOp(its); op != "" {
		in = op + " (" + in + ")"
	}
	who := "it"
	if len(c.ranks) > 1 {
		who = "they"
	}
	return " in " + in + ": " + who + " waited there for a rank that did not join the collective (behind, or gone); the log does not say which."
}

package diagnose

import "github.com/nccllog/nccllog/parser"

// libstdc++ prints an uncaught exception on two lines, the second indented:
//
//	terminate called after throwing an instance of 'std::runtime_error'
//	  what():  NCCL failure: unhandled cuda error in all_reduce.cu at line: 86 rank: 0
//
// and two processes that abort together may print theirs interleaved (terminate, terminate,
// what(), what()). Each line is read alone (an evTerminate item: the first with the
// exception's type, the second with its message), so pairTerminates gives each head line the
// message of its what(): the finding then says what was thrown, not "failed first: " with
// nothing after it.

// maxWhatLines is how far below its head a what() line may come (another process's lines
// between them).
const maxWhatLines = 16

// pairTerminates gives each terminate head without a message the next what() line not yet
// given to another (in file order, of its file, within maxWhatLines lines, of the same process
// where both show one): its message, ncclResult and rank. The what() lines given are dropped:
// the head stands for both. Items are in file and line order (Evidence).
func pairTerminates(items []Item) []Item {
	var heads []int // unpaired heads, oldest first
	given := make(map[int]bool)
	for i := range items {
		it := &items[i]
		switch {
		case it.Ev != evTerminate:
		case it.Name != "" && it.Text == "":
			heads = append(heads, i)
		case isWhat(it):
			heads = pairWhat(items, heads, i, given)
		}
		if it.Ev == evWatchdog {
			heads = timeoutWhat(items, heads, i, given)
		}
	}
	return without(items, given)
}

// without is items less those whose index drop holds, in place.
func without(items []Item, drop map[int]bool) []Item {
	if len(drop) == 0 {
		return items
	}
	out := items[:0]
	for i := range items {
		if !drop[i] {
			out = append(out, items[i])
		}
	}
	return out
}

// pairWhat gives the what() line items[w] to the oldest head of heads it may be under, and
// returns the heads still unpaired (those too far above it dropped).
func pairWhat(items []Item, heads []int, w int, given map[int]bool) []int {
	what := &items[w]
	kept := heads[:0]
	paired := false
	for _, h := range heads {
		head := &items[h]
		switch {
		case head.File != what.File || what.Line-head.Line > maxWhatLines:
			continue // too far above: no what() of its own came
		case paired || !sameProcess(head, what):
			kept = append(kept, h)
			continue
		}
		head.Text, paired, given[w] = what.Text, true, true
		if head.Code <= 0 {
			head.Code = what.Code
		}
		if head.Rank < 0 {
			head.Rank, head.RankLast = what.Rank, what.RankLast
		}
		if head.Under == 0 {
			head.Under = what.Under
		}
	}
	return kept
}

// isWhat reports whether the terminate item it is a what() line of its own: a message, and
// no exception's type (the name of the ncclResult the message names stands in for one).
func isWhat(it *Item) bool {
	if it.Text == "" {
		return false
	}
	return it.Name == "" || it.Code > 0 && it.Code < int64(numResultKinds) && it.Name == parser.NCCLResult(it.Code).String()
}

// sameProcess reports whether a and b may be one process's lines: neither shows another's.
func sameProcess(a, b *Item) bool {
	if a.Host != "" && b.Host != "" && (a.Host != b.Host || a.Pid != b.Pid) {
		return false
	}
	return a.Rank < 0 || b.Rank < 0 || a.Rank == b.Rank
}

// timeoutWhat drops the head right above items[w], a watchdog timeout read from a what()
// line (`terminate called after throwing an instance of 'std::runtime_error'` over `what():
// [Rank 0] Watchdog caught collective operation timeout: ...`): what was thrown is the
// timeout, which stands for both, not a crash of its own. It returns the heads still unpaired.
func timeoutWhat(items []Item, heads []int, w int, given map[int]bool) []int {
	what := &items[w]
	kept := heads[:0]
	for _, h := range heads {
		head := &items[h]
		if head.File == what.File && head.Line+1 == what.Line && sameProcess(head, what) {
			given[h] = true
			continue
		}
		kept = append(kept, h)
	}
	return kept
}

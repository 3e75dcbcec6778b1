package diagnose

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/stages"
)

// PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG=1, TraceUtils.h's retrieveDesyncReport),
// printed with a watchdog timeout, names the ranks out of step from the store every rank
// records its collectives in:
//
//	[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, ...) ran for 8097 milliseconds before timing out.
//	 - [0] Timeout at collective: ALLREDUCE, #3
//	 - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:
//	   - [3] joined but didn't finish collective #2 (count from 1)
//	     [1] finished collective #2, but didn't join collective #3 (count from 1)
//
// or `ranks [1, 5] are the lagging ranks that caused this timeout. They never joined any
// collectives`. Every rank the report names is at the earliest collective of the job, the one
// the others waited on: the first fault's ranks, behind (dead, hung, or calling other
// collectives), and the timeouts follow from them.

// Names of a desync item: how the report says its rank is out of step.
const (
	desyncUnfinished = "unfinished" // joined collective #Seq but did not finish it
	desyncNotJoined  = "not-joined" // finished #Seq but did not join the next
	desyncNever      = "never"      // never joined any collective
)

var (
	desyncUnfinishedWords = []byte("] joined but didn't finish collective #")
	desyncNotJoinedWords  = []byte("] finished collective #")
	desyncNeverWords      = []byte("are the lagging ranks that caused this timeout")
)

// maxDesyncRanks bounds the ranks one report line adds.
const maxDesyncRanks = 64

// mayBeDesync reports whether t, a line of other text, may be a line of the report: past its
// blanks, tabs and a dash, a list of ranks (`[1]`, `[0, 1]`) or the `To our best knowledge,
// ranks [` sentence. A bracketed time (`[2024-...`) fails at its dash.
func mayBeDesync(t []byte) bool {
	i := 0
	for i < len(t) && (t[i] == ' ' || t[i] == '\t' || t[i] == '-') {
		i++
	}
	if i+24 >= len(t) {
		return false
	}
	if t[i] == 'T' {
		return bytes.HasPrefix(t[i:], desyncNeverHead)
	}
	if t[i] != '[' {
		return false
	}
	j := i + 1
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	return j > i+1 && j < len(t) && (t[j] == ']' || t[j] == ',')
}

// desyncNeverHead opens the report's line on ranks that never joined a collective.
var desyncNeverHead = []byte("To our best knowledge, ranks [")

// addDesync keeps the ranks a line of the report names, one item each; it reports whether
// the line was one.
func (p *Part) addDesync(l *stages.Line) bool {
	t := l.Text
	var name string
	var words []byte
	switch {
	case bytes.Contains(t, desyncUnfinishedWords):
		name, words = desyncUnfinished, desyncUnfinishedWords
	case bytes.Contains(t, desyncNotJoinedWords) && bytes.Contains(t, []byte("but didn't join collective #")):
		name, words = desyncNotJoined, desyncNotJoinedWords
	case bytes.Contains(t, desyncNeverWords):
		name = desyncNever
	default:
		return false
	}
	var ranks []int64
	seq := int64(-1)
	if words != nil {
		end := bytes.Index(t, words)
		open := bytes.LastIndexByte(t[:end], '[')
		if open < 0 {
			return false
		}
		ranks = rankListAt(t[open+1 : end])
		seq, _ = decimalAt(t[end+len(words):])
	} else {
		open := bytes.Index(t, []byte("ranks ["))
		close := bytes.IndexByte(t[max(open, 0):], ']')
		if open < 0 || close < 0 {
			return false
		}
		ranks = rankListAt(t[open+len("ranks [") : open+close])
	}
	if len(ranks) == 0 {
		return false
	}
	for _, r := range ranks {
		it := newItem(evDesync, l.N, l.P)
		it.Rank, it.RankLast, it.Seq, it.Name = r, r, seq, name
		it.Text = clip(bytes.TrimLeft(t, " \t-"))
		p.keep(it)
	}
	return true
}

// rankListAt reads `1, 5, 7` (the report's list of ranks), nil where it is not one.
func rankListAt(b []byte) []int64 {
	var out []int64
	for _, f := range bytes.Split(b, []byte(",")) {
		f = bytes.TrimSpace(f)
		v, n := decimalAt(f)
		if n == 0 || n != len(f) || len(out) == maxDesyncRanks {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// desyncItem files a report's item: the report's ranks make one finding.
func (b *builder) desyncItem(it *Item, pos int) {
	if b.desync == nil {
		b.desync = newCand(KindBehind, true)
		b.desync.onlyRanks = true
	}
	b.desync.add(it, pos, nil)
	if !slices.Contains(b.desync.ranks, it.Rank) {
		b.desync.ranks = append(b.desync.ranks, it.Rank)
	}
}

// desyncSummary is the sentence of the report's finding.
func desyncSummary(c *cand) string {
	var parts []string
	for _, name := range []string{desyncUnfinished, desyncNotJoined, desyncNever} {
		var rs []int64
		seq := int64(-1)
		for _, it := range c.items {
			if it.Ev == evDesync && it.Name == name && !slices.Contains(rs, it.Rank) {
				rs, seq = append(rs, it.Rank), it.Seq
			}
		}
		if len(rs) == 0 {
			continue
		}
		who := rankWords(sortedRanks(rs))
		switch name {
		case desyncUnfinished:
			parts = append(parts, fmt.Sprintf("%s joined collective #%d but did not finish it", who, seq))
		case desyncNotJoined:
			parts = append(parts, fmt.Sprintf("%s finished collective #%d but did not join #%d", who, seq, seq+1))
		default:
			parts = append(parts, who+" never joined a collective")
		}
	}
	return "PyTorch's desync report names " + rankWords(sortedRanks(c.ranks)) + " as out of step: " + strings.Join(parts, "; ") +
		" (behind, dead, or calling other collectives than the others); the other ranks' timeouts follow from it."
}

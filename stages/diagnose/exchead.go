package diagnose

import (
	"bytes"
	"math"
	"slices"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// PyTorch >= 2.4 prints the watchdog's exception under a `[rankN]:` prefix, and the lines
// of the exception's message that follow without one:
//
//	[rank5]:[E207 19:37:09.983600771 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 5] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5
//	ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.
//	Last error:
//	socketProgressOpt: Call to recv from 10.119.24.53<49901> failed : Broken pipe
//
// The unprefixed lines are the header's rank's: each NCCL exception line right under the
// header, or under such a line, is given the header's rank (Item.Under), read in one chunk or
// across a cut.

// excHeadWords mark the header: the watchdog's exception, whose message goes on unprefixed.
var excHeadWords = []byte("terminated with exception: ")

// excRun is the last line of a header's run: the header, or an exception line under it.
type excRun struct {
	ok   bool
	file string // "" until anchored
	line int64
	rank int64
}

// excOrphans are the unprefixed exception lines that open a chunk, with no header above
// them in it: the chunk before may end with their header.
type excOrphans struct {
	ok          bool
	file        string
	first, last int64 // their first line (the chunk's first) and last
	items       []int // their items' indexes in the chunk's Part
	wait        bool  // the chunk's `Last error:` wait is one of them
}

// excHeader notes a `[rankN]:` line that opens an exception whose message goes on below:
// the watchdog's, or a collective's async exception, which it keeps where the line is other
// text (asyncexc.go).
func (p *Part) excHeader(l *stages.Line, other bool) {
	r := l.P.Rank
	if r < 0 || r >= math.MaxInt32 {
		return
	}
	i := bytes.Index(l.Text, excWord)
	if i < 0 {
		return
	}
	switch at := asyncAt(l.Text, i); {
	case at >= 0:
		if other {
			p.addAsyncException(l, l.Text[at:])
		}
	case !bytes.Contains(l.Text[max(0, i-len(excHeadWords)+len(excWord)):], excHeadWords):
		return
	}
	p.run = excRun{ok: true, line: l.N, rank: r}
}

// excContinues reports whether l, read as a failure line, may continue an exception's
// message: an NCCL exception's line that shows no process of its own.
func excContinues(l *parser.Line) bool {
	if l.Rank >= 0 || l.Env.HasEnvelope() {
		return false
	}
	switch l.Fail.Event {
	case parser.FailureNCCLResult, parser.FailureLastError, parser.FailureException:
		return true
	}
	return false
}

// addExcLine keeps a failure line that continues an exception's message: under its header's
// rank where the run above reaches it, else noted as an orphan where it opens the chunk.
func (p *Part) addExcLine(n int64, l *parser.Line) {
	from := len(p.items)
	p.addFailure(n, l)
	waits := p.wait.ok && p.wait.line == n && p.wait.file == ""
	switch r := p.run; {
	case r.ok && r.file == "" && n == r.line+1:
		p.run.line = n
		for i := from; i < len(p.items); i++ {
			p.items[i].under(r.rank)
		}
		if waits {
			p.wait.under = int32(r.rank) + 1
		}
	case n == 1 || p.orph.ok && p.orph.file == "" && n == p.orph.last+1:
		if n == 1 {
			p.orph = excOrphans{ok: true, first: 1}
		}
		p.orph.last = n
		for i := from; i < len(p.items); i++ {
			p.orph.items = append(p.orph.items, i)
		}
		p.orph.wait = p.orph.wait || waits
	}
}

// anchorExc names the file of a run and orphans not anchored yet.
func (p *Part) anchorExc(o stages.Origin) {
	if p.run.ok && p.run.file == "" {
		p.run.file, p.run.line = o.File, p.run.line+o.Base
	}
	if p.orph.ok && p.orph.file == "" {
		p.orph.file, p.orph.first, p.orph.last = o.File, p.orph.first+o.Base, p.orph.last+o.Base
	}
}

// mergeExc gives o's orphans the rank of the run p ends with where they continue it, as one
// Partial reading both would have; it runs before o's items and wait are taken.
func (p *Part) mergeExc(o *Part) {
	r, or := p.run, o.orph
	if r.ok && r.file != "" && or.ok && or.file == r.file && or.first == r.line+1 {
		for _, i := range or.items {
			o.items[i].under(r.rank)
		}
		// The wait o holds is the orphans' only where it is their last line: a later
		// `Last error:` in o, after the orphans' run ended, is no line of theirs.
		if or.wait && o.wait.ok && o.wait.file == or.file && o.wait.line == or.last {
			o.wait.under = int32(r.rank) + 1
		}
		if !o.run.ok {
			o.run = excRun{ok: true, file: r.file, line: or.last, rank: r.rank}
		}
	}
	if o.run.ok {
		p.run = o.run
	}
}

// waitedOrphan notes the item kept from index i on as an orphan's, where the `Last error:`
// wait w it answers was one.
func (p *Part) waitedOrphan(w lastWait, i int) {
	if !p.orph.wait || p.orph.file != "" || w.line != p.orph.last {
		return
	}
	p.orph.wait = false
	for ; i < len(p.items); i++ {
		p.orph.items = append(p.orph.items, i)
	}
}

// underRanks gives each item that shows no rank of its own the rank of the exception header
// above it; items is copied first where one changes, as it is the Part's.
func underRanks(items []Item) []Item {
	copied := false
	for i := range items {
		it := &items[i]
		if it.Under == 0 || it.Rank >= 0 {
			continue
		}
		if !copied {
			items, copied = slices.Clone(items), true
			it = &items[i]
		}
		it.Rank, it.RankLast = int64(it.Under)-1, int64(it.Under)-1
	}
	return items
}

// under gives it the rank of the header above it, where it shows none of its own.
func (it *Item) under(rank int64) {
	if it.Rank < 0 {
		it.Under = int32(rank) + 1
	}
}

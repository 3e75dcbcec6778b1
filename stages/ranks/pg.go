package ranks

import (
	"cmp"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// PGKey names a PyTorch process group as its watchdog lines tag it: the id and the GUID (""
// where the tag prints none). ID is -1 for the lines whose tag names no group (`[Rank 4]
// Watchdog caught collective operation timeout`); PGHang files them under the group whose
// queue line reports the same timeout.
type PGKey struct {
	ID   int64
	GUID string
}

// PGRank is what the watchdog and flight-recorder lines of one rank of one process group say:
// where its work queue stood and the work it timed out on. Sequence numbers count the group's
// work items on the rank (PyTorch's SeqNum), not NCCL calls; -1 where no line said.
type PGRank struct {
	PG   PGKey
	Name string // the group's description (`default_pg`), "" where not printed
	Rank int64
	// File holds the rank's watchdog lines; Label is the launcher's rank label on them (-1:
	// none), which ties them to the NCCL lines of the same process.
	File  string
	Label int64
	// The queue as last reported, and the line that reported it.
	LastEnqueued, LastStarted, LastCompleted int64
	StartedOp                                string
	QueueLine                                int64
	// TimedOut is the work the watchdog caught failing or timing out; the timeout line gives
	// its op, sizes, timeout and how long it ran, and (its glog head) when it was printed.
	TimedOut          int64
	OpType            string
	NumelIn, NumelOut int64
	TimeoutMs         int64
	RanForMs          int64
	TimeoutLine       int64
	At                parser.GlogHead
	// DumpFirst: the rank was the first to signal a flight-recorder dump (where the timeout was
	// seen first). Lines counts the rank's watchdog lines in the group.
	DumpFirst bool
	Lines     int64
	LastLine  int64 // the rank's last watchdog line in the group
}

type pgRankKey struct {
	PG   PGKey
	Rank int64
}

func newPGRank(k pgRankKey, file string, label int64) *PGRank {
	return &PGRank{PG: k.PG, Rank: k.Rank, File: file, Label: label, LastEnqueued: -1, LastStarted: -1,
		LastCompleted: -1, TimedOut: -1, NumelIn: -1, NumelOut: -1, TimeoutMs: -1, RanForMs: -1}
}

// watchdog folds one watchdog line into the state of its rank's process group.
func (r *Ranks) watchdog(file string, w *parser.Watchdog, line, label int64) {
	k := pgRankKey{PGKey{w.PG, w.PGGUID}, w.Rank}
	if w.PG < 0 && w.PGGUID == "" {
		k.PG.ID = -1
	}
	if k.Rank < 0 {
		k.Rank = label // a line without a tag: the launcher's label is the global rank
	}
	p := r.pgs[k]
	if p == nil {
		p = newPGRank(k, file, label)
		r.pgs[k] = p
	}
	p.Lines++
	p.File, p.Label, p.LastLine = file, label, line // as merge does: the latest line's
	if w.PGName != "" {
		p.Name = w.PGName
	}
	switch w.Event {
	case parser.WatchdogTimeout:
		p.TimedOut, p.OpType, p.NumelIn, p.NumelOut = w.Seq, w.OpType, w.NumelIn, w.NumelOut
		p.TimeoutMs, p.RanForMs, p.TimeoutLine, p.At = w.TimeoutMs, w.RanForMs, line, w.Glog
	case parser.WatchdogException, parser.WatchdogFailure, parser.WatchdogTimeoutAt, parser.WatchdogDumpReceived:
		p.queue(w, line)
	case parser.WatchdogDumpFirst:
		p.DumpFirst = true
	}
}

// queue takes a line's report of the rank's work queue.
func (p *PGRank) queue(w *parser.Watchdog, line int64) {
	if w.Event != parser.WatchdogDumpReceived && w.Seq >= 0 {
		p.TimedOut = w.Seq
		if p.TimeoutLine == 0 {
			p.TimeoutLine = line
		}
	}
	if w.LastEnqueued >= 0 || w.LastCompleted >= 0 {
		p.LastEnqueued, p.LastCompleted, p.QueueLine = w.LastEnqueued, w.LastCompleted, line
		p.LastStarted, p.StartedOp = w.LastStarted, w.StartedOp
	}
}

// merge adds o, the same rank's lines from later input, to p: o's reports are the later ones.
func (p *PGRank) merge(o *PGRank) {
	p.Lines += o.Lines
	p.DumpFirst = p.DumpFirst || o.DumpFirst
	p.File, p.Label, p.LastLine = o.File, o.Label, o.LastLine
	if o.Name != "" {
		p.Name = o.Name
	}
	if o.QueueLine > 0 {
		p.LastEnqueued, p.LastStarted, p.LastCompleted = o.LastEnqueued, o.LastStarted, o.LastCompleted
		p.StartedOp, p.QueueLine = o.StartedOp, o.QueueLine
	}
	if o.TimedOut >= 0 {
		p.TimedOut = o.TimedOut
	}
	if o.OpType != "" || o.TimeoutMs >= 0 || p.TimeoutLine == 0 {
		// o holds the timeout line itself (or p has none).
		p.OpType, p.NumelIn, p.NumelOut = o.OpType, o.NumelIn, o.NumelOut
		p.TimeoutMs, p.RanForMs, p.TimeoutLine, p.At = o.TimeoutMs, o.RanForMs, o.TimeoutLine, o.At
	}
}

// mergePGs adds o's process-group ranks to r's.
func (r *Ranks) mergePGs(o *Ranks) {
	for k, op := range o.pgs {
		if p := r.pgs[k]; p != nil {
			p.merge(op)
		} else {
			r.pgs[k] = op
		}
	}
}

// PGRanks returns every rank of every process group the watchdog lines name, by group and rank.
func (r *Ranks) PGRanks() []*PGRank {
	r.settle()
	out := make([]*PGRank, 0, len(r.pgs))
	for _, p := range r.pgs {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *PGRank) int {
		return cmp.Or(cmp.Compare(a.PG.ID, b.PG.ID), cmp.Compare(a.PG.GUID, b.PG.GUID), cmp.Compare(a.Rank, b.Rank))
	})
	return out
}

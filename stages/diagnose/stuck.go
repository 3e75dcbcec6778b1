package diagnose

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// PyTorch's heartbeat monitor watches each process's NCCL watchdog thread, and where that
// thread makes no progress for TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC (480 s) it says so and ends
// the process (PyTorch 2.4 and later; 2.2-2.3 print the second form):
//
//	[rank7]:[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 7] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, ...
//	[rank7]:[E0626 05:14:36.393 ProcessGroupNCCL.cpp:1325] [PG 0 Rank 7] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1
//
// The watchdog is stuck in a CUDA or NCCL call that does not return: a hang, often the
// abort of a communicator after another rank's fault. The line proves a fault (the process
// is ended), and follows any other fault the log shows.

// Heads of the two forms, and of PyTorch 2.2-2.3's abort that does not return (`[PG 0 Rank 0]
// Future for ProcessGroup abort timed out after 600000 ms`, printed before the monitor's).
var (
	stuckHead     = []byte("watchdog got stuck for ")
	heartbeatHead = []byte("Heartbeat monitor timed out!")
	abortHead     = []byte("Future for ProcessGroup abort timed out")
)

// minStuckLine is the shortest line that may be one: the 2.2 form with no prefix.
const minStuckLine = 64

// maxLabel bounds PyTorch's `[rank12345]:` label.
const maxLabel = 16

// errorHead reports whether t opens, after PyTorch's `[rankN]:` label where it has one, with
// an ERROR line's head: c10's `[E626 ...` or glog's `E0626 ...`. Every line of other text
// takes this test, inline; a training log's other lines fail it on their first bytes.
func errorHead(t []byte) bool {
	if len(t) < minStuckLine {
		return false
	}
	switch {
	case t[0] == 'E' || t[0] == 'F':
		return severityRest(t[1])
	case t[0] != '[':
		return false
	case t[1] == 'E' || t[1] == 'F':
		return severityRest(t[2])
	}
	return t[1] == 'r' && labelledErrorHead(t)
}

// severityRest reports whether c may follow an ERROR or FATAL head's letter: the date
// (`E0626`, `[E626`), or a blank where PyTorch 2.2-2.3 print none (`[E ProcessGroupNCCL.cpp:1316]`).
func severityRest(c byte) bool { return c >= '0' && c <= '9' || c == ' ' }

// labelledErrorHead is errorHead past a `[rankN]:` label.
func labelledErrorHead(t []byte) bool {
	i := bytes.IndexByte(t[:maxLabel], ':')
	if i < 0 {
		return false
	}
	t = t[i+1:]
	if t[0] == '[' {
		t = t[1:]
	}
	return (t[0] == 'E' || t[0] == 'F') && severityRest(t[1])
}

// addStuck keeps other text that is the heartbeat monitor's line (see above).
func (p *Part) addStuck(l *stages.Line) {
	from := len(p.items)
	if p.addWatchdogException(l) || p.addTakenDown(l) || p.addC10dSocket(l) { // exception.go's family, in its ERROR form; c10dsock.go
		p.repeated(from, l.Text) // rayrepeat.go
		return
	}
	if l.P.Rank < 0 { // a labelled line's async exception is read with its header (exchead.go)
		if i := bytes.Index(l.Text, excWord); i >= 0 && asyncAt(l.Text, i) >= 0 {
			p.addAsyncException(l, l.Text[asyncAt(l.Text, i):])
			return
		}
	}
	i := bytes.Index(l.Text, stuckHead)
	if i < 0 {
		i = bytes.Index(l.Text, heartbeatHead)
	}
	if i < 0 {
		i = bytes.Index(l.Text, abortHead)
	}
	if i < 0 || !bytes.Contains(l.Text[:i], []byte("ProcessGroup")) && !bytes.Contains(l.Text[i:], []byte("Process will be terminated")) && !bytes.HasPrefix(l.Text[i:], abortHead) {
		return
	}
	it := newItem(evStuck, l.N, l.P)
	msg := parser.Unprefixed(l.Text)
	// Its heads: glog's `[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743]` where the
	// time was not read as the line's, then the process group's `[PG 0 Rank 7]` (twice in
	// PyTorch 2.3's FATAL form).
	for range 3 {
		j := bytes.IndexByte(msg, ']')
		if !bytes.HasPrefix(msg, []byte("[")) || j < 0 {
			break
		}
		if r := stuckRank(msg[:j]); it.Rank < 0 && r >= 0 {
			it.Rank, it.RankLast = r, r
		}
		msg = bytes.TrimLeft(msg[j+1:], " ")
	}
	if j := bytes.Index(msg, []byte(". ")); j >= 0 {
		msg = msg[:j+1] // the rest is advice
	}
	it.Text = clip(msg)
	p.keep(it)
}

// stuckRank is the rank of a `[PG ID 0 PG GUID 0(default_pg) Rank 7` head, -1 where none.
func stuckRank(head []byte) int64 {
	i := bytes.LastIndex(head, []byte("Rank "))
	if i < 0 {
		return -1
	}
	r, err := strconv.ParseInt(string(bytes.TrimSpace(head[i+len("Rank "):])), 10, 64)
	if err != nil || r < 0 {
		return -1
	}
	return r
}

// stuckItem files a heartbeat monitor's line into the finding of stuck watchdogs.
func (b *builder) stuckItem(it *Item, pos int, p *proc) {
	if b.stuck == nil {
		b.stuck = newCand(KindWatchdogTimeout, true)
		b.stuck.stuck = true
	}
	b.stuck.add(it, pos, p)
	if it.Rank >= 0 && !containsRank(b.stuck.ranks, it.Rank) {
		b.stuck.ranks = append(b.stuck.ranks, it.Rank)
	}
}

// stuckSummary says whose watchdog got stuck, and for how long where the line says.
func stuckSummary(c *cand, after string) string {
	whose := watchdogWho(c.ranks) + " PyTorch watchdog"
	if len(c.ranks) == 0 {
		whose = "A process's PyTorch watchdog"
		if len(c.procs) > 0 {
			whose = who(c) + "'s PyTorch watchdog"
		}
	}
	how := "got stuck"
	if s := stuckSeconds(c.items[0].Text); s > 0 {
		how = fmt.Sprintf("got stuck for %d seconds", s)
	}
	return whose + " " + how + after + ": a CUDA or NCCL call it made did not return (a hang), and PyTorch's heartbeat monitor ends the process."
}

// stuckSeconds is the seconds a `watchdog got stuck for N seconds` message names, 0 where none.
func stuckSeconds(msg string) int64 {
	i := strings.Index(msg, string(stuckHead))
	if i < 0 {
		return 0
	}
	rest := msg[i+len(stuckHead):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(rest[:j], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// watchdogExcHead is where PyTorch's watchdog reports the exception that ended it: `[Rank 0]
// NCCL watchdog thread terminated with exception: CUDA error: an illegal memory access was
// encountered` (2.0-2.3) or `Process
// group watchdog thread terminated with exception: ...` (2.4+).
var watchdogExcHead = []byte("watchdog thread terminated with exception: ")

// gluedWordHead is the length of the word of capitals t opens with where the watchdog's
// head, a bracket, follows it without a blank (pytest's `FAILED[E ProcessGroupNCCL.cpp:1182]
// [Rank 0] NCCL watchdog thread terminated with exception: ...`), 0 where it does not: the
// one test every long line of other text takes before a search for watchdogExcHead, which,
// run on each, cost a text-heavy log 4% of diagnose's instructions.
func gluedWordHead(t []byte) int {
	const maxWord = 12
	i := 0
	for i < len(t) && i <= maxWord && t[i] >= 'A' && t[i] <= 'Z' {
		i++
	}
	if i < 2 || i > maxWord || i+1 >= len(t) || t[i] != '[' {
		return 0
	}
	return i
}

// minWrapperLine is the shortest line that holds a process group's head, watchdogExcHead and
// an exception after it.
const minWrapperLine = 80

// addWatchdogException keeps a watchdog's exception line whose message is the process's own
// error (a CUDA error): the NCCL errors it repeats, and a timeout it re-raises (`[Rank 0]
// Watchdog caught ...`), are read from their own lines. It reports whether it kept one.
func (p *Part) addWatchdogException(l *stages.Line) bool {
	i := bytes.Index(l.Text, watchdogExcHead)
	if i < 0 {
		return false
	}
	msg := bytes.TrimSpace(l.Text[i+len(watchdogExcHead):])
	if len(msg) > 0 && msg[0] == '[' {
		return p.addWrappedTimeout(l, msg)
	}
	if len(msg) == 0 || bytes.HasPrefix(msg, []byte("NCCL error")) {
		return false
	}
	it := newItem(evException, l.N, l.P)
	if r := headRankBefore(l.Text, i); it.Rank < 0 && r >= 0 {
		it.Rank, it.RankLast = r, r
	}
	it.Text = clip(msg)
	p.keep(it)
	return true
}

// wrappedTimeout is the timeout a watchdog's exception line re-raises: `... watchdog thread
// terminated with exception: [Rank 0] Watchdog caught collective operation timeout:
// WorkNCCL(SeqNum=5, OpType=ALLREDUCE, ...) ran for 600062 milliseconds before timing out.`
var wrappedTimeout = []byte("] Watchdog caught collective operation timeout: WorkNCCL(")

// addWrappedTimeout keeps the timeout a watchdog's exception line re-raises (msg, after its
// head) as the timeout's own line would be: where PyTorch printed that line too, both are the
// same finding's evidence. It reports whether msg was one.
func (p *Part) addWrappedTimeout(l *stages.Line, msg []byte) bool {
	j := bytes.Index(msg, wrappedTimeout)
	if j < 0 {
		return false
	}
	it := newItem(evWatchdog, l.N, l.P)
	rank := stuckRank(msg[:j])
	if it.Rank < 0 {
		it.Rank, it.RankLast = rank, rank
	}
	tuple := msg[j+len(wrappedTimeout):]
	if v, err := strconv.ParseInt(string(tupleField(tuple, "SeqNum=")), 10, 64); err == nil && v >= 0 {
		it.Seq = v
	}
	it.Name = parser.WatchdogTimeout.String()
	it.Text = fmt.Sprintf("rank %d: watchdog timeout", rank)
	if it.Seq >= 0 {
		it.Text += fmt.Sprintf(" at work %d", it.Seq)
	}
	if op := tupleField(tuple, "OpType="); len(op) > 0 {
		it.Text += " (" + string(op) + ")"
	}
	p.keep(it)
	return true
}

// tupleField is the value of key in a WorkNCCL tuple (up to its comma or parenthesis), nil
// where the tuple names none.
func tupleField(tuple []byte, key string) []byte {
	i := bytes.Index(tuple, []byte(key))
	if i < 0 {
		return nil
	}
	v := tuple[i+len(key):]
	if k := bytes.IndexAny(v, ",)"); k >= 0 {
		v = v[:k]
	}
	return v[:min(len(v), 64)]
}

// headRankBefore is the rank of the process group's head (`[PG 0 Rank 7]`, `[Rank 0]`) that
// closes last before t[i], -1 where none.
func headRankBefore(t []byte, i int) int64 {
	j := bytes.LastIndexByte(t[:i], '[')
	if j < 0 {
		return -1
	}
	k := bytes.IndexByte(t[j:i], ']')
	if k <= 0 {
		return -1
	}
	return stuckRank(t[j : j+k])
}

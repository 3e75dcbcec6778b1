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

// Heads of the two forms.
var (
	stuckHead     = []byte("watchdog got stuck for ")
	heartbeatHead = []byte("Heartbeat monitor timed out!")
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
	case t[0] == 'E':
		return t[1] >= '0' && t[1] <= '9'
	case t[0] != '[':
		return false
	case t[1] == 'E':
		return t[2] >= '0' && t[2] <= '9'
	}
	return t[1] == 'r' && labelledErrorHead(t)
}

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
	return t[0] == 'E' && t[1] >= '0' && t[1] <= '9'
}

// addStuck keeps other text that is the heartbeat monitor's line (see above).
func (p *Part) addStuck(l *stages.Line) {
	i := bytes.Index(l.Text, stuckHead)
	if i < 0 {
		i = bytes.Index(l.Text, heartbeatHead)
	}
	if i < 0 || !bytes.Contains(l.Text[:i], []byte("ProcessGroup")) && !bytes.Contains(l.Text[i:], []byte("Process will be terminated")) {
		return
	}
	it := newItem(evStuck, l.N, l.P)
	msg := parser.Unprefixed(l.Text)
	// Its heads: glog's `[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743]` where the
	// time was not read as the line's, then the process group's `[PG 0 Rank 7]`.
	for range 2 {
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

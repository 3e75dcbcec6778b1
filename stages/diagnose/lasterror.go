package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// PyTorch prints NCCL's last WARN message under an NCCL exception, after `Last error:`: on
// that line (a message that ran on), or on the next (its own form):
//
//	torch.distributed.DistBackendError: NCCL error in: ..., remote process exited or there was a network error, NCCL version 2.21.5
//	ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.
//	Last error:
//	NET/IB : Got completion from peer 10.0.0.2<4242> with error 12, opcode 0, len 0, vendor err 129
//
// The message is kept as an evLastError item: the origin the exception names, where NCCL's
// own lines name none.

// lastWait is a `Last error:` line whose message follows on the next line.
type lastWait struct {
	ok    bool
	file  string // "" until anchored
	line  int64
	rank  int64
	under int32 // Item.Under of the exception line it is (exchead.go)
}

// leadLine is a chunk's first line where it is other text: the message a `Last error:` at the
// end of the chunk before may be waiting for.
type leadLine struct {
	ok   bool
	file string
	item Item
	body string // its raw text where it may hold a wrapped watchdog head's tuple (wdwrap.go)
}

// addFailure keeps a failure line's evidence, and the `Last error:` message it holds, or
// waits for it on the next line.
func (p *Part) addFailure(n int64, l *parser.Line) {
	f := l.Fail
	if it, ok := failWatchdogItem(n, l); ok {
		p.keep(it) // a what() that carries a watchdog timeout: the timeout, not a crash
		return
	}
	if it, ok := caughtTimeoutItem(n, l); ok {
		p.keep(it) // caught.go: a timeout raised on the waiting thread
		return
	}
	if f.Event == parser.FailureLastError && f.LastError == "" {
		p.wait = lastWait{ok: true, line: n, rank: l.Rank}
		return
	}
	if it, ok := failureItem(n, l); ok {
		p.keep(it)
	}
	if f.LastError != "" {
		it := newItem(evLastError, n, l)
		if f.Task >= 0 {
			it.Rank, it.RankLast = f.Task, f.Task
		}
		p.keep(lastErrorItem(it, []byte(f.LastError), int64(f.Result)))
	}
}

// addOther reads other text: the message a `Last error:` line waits for, and a chunk's first
// line, which the chunk before may be waiting for.
func (p *Part) addOther(l *stages.Line) {
	if l.N == 1 {
		p.lead = leadLine{ok: true, item: p.unlabelledOther(l), body: leadBody(l.Text)}
	}
	if p.wdWait.ok || mayEndColon(l.Text) {
		p.addWrapped(l) // wdwrap.go; most lines end otherwise
	}
	if w := p.wait; w.ok && w.file == "" && l.N == w.line+1 {
		p.wait.ok = false
		from := len(p.items)
		p.keep(waitedItem(p.unlabelledOther(l), w))
		p.waitedOrphan(w, from)
	}
}

// otherItem is other text read as a `Last error:` message: the text after its prefixes.
func otherItem(l *stages.Line) Item {
	it := newItem(evLastError, l.N, l.P)
	msg := parser.Unprefixed(l.Text)
	if _, e := loggerHead(msg); e > 0 {
		msg = msg[e:] // logger.go: the message behind vLLM's or glog's head
	}
	it.Text = clip(msg)
	return it
}

// unlabelledOther is otherItem of l read behind the launcher's label it opens with, where
// one does (reread.go): the message without it, of the label's host.
func (p *Part) unlabelledOther(l *stages.Line) Item {
	it := otherItem(l)
	if n := len(p.label.host); p.label.line == l.N && n+2 <= len(l.Text) {
		it.Text = clip(parser.Unprefixed(l.Text[n+2:]))
		if h, ok := p.label.names(l.N); ok && it.Host == "" && it.Pid < 0 {
			it.Host, it.Labelled = h, true
		}
	}
	return it
}

// waitedItem is the message it that followed the `Last error:` line w.
func waitedItem(it Item, w lastWait) Item {
	if it.Rank < 0 {
		it.Rank, it.RankLast = w.rank, w.rank
	}
	if it.Rank < 0 {
		it.Under = w.under
	}
	return lastErrorItem(it, []byte(it.Text), -1)
}

// lastErrorItem fills it with the message msg and the ncclResult code (-1: none).
func lastErrorItem(it Item, msg []byte, code int64) Item {
	it.Ev, it.Text, it.Code = evLastError, clip(msg), code
	it.Peer = peerAddr(msg)
	return it
}

// peerAddr is the address a message names before a port in angle brackets (`from peer
// 10.0.0.2<4242>`, `Call to recv from 10.0.0.2<58355> failed`), "" where none.
func peerAddr(msg []byte) string {
	for i := 0; i < len(msg); i++ {
		j := bytes.IndexByte(msg[i:], '<')
		if j < 0 {
			return ""
		}
		i += j
		k := i + 1
		for k < len(msg) && msg[k] >= '0' && msg[k] <= '9' {
			k++
		}
		if k == i+1 || k >= len(msg) || msg[k] != '>' {
			continue
		}
		s := bytes.LastIndexAny(msg[:i], " \t") + 1
		if s < i {
			return clip(msg[s:min(i, s+253)])
		}
	}
	return ""
}

// anchorWait names the file of a wait and a lead not anchored yet.
func (p *Part) anchorWait(o stages.Origin) {
	if p.wait.ok && p.wait.file == "" {
		p.wait.file, p.wait.line = o.File, p.wait.line+o.Base
	}
	if p.lead.ok && p.lead.file == "" {
		p.lead.file = o.File
		p.lead.item.File, p.lead.item.Line = o.File, p.lead.item.Line+o.Base
	}
}

// mergeWait keeps the message a `Last error:` at p's end waits for where o's first line is
// it, as one Partial reading both would have; o's wait is p's after.
func (p *Part) mergeWait(o *Part) {
	w := p.wait
	if w.ok && w.file != "" && o.lead.ok && o.lead.file == w.file && o.lead.item.Line == w.line+1 {
		whole := p.anchored == len(p.items)
		p.keep(waitedItem(o.lead.item, w))
		if whole {
			p.anchored = len(p.items)
		}
		p.wait.ok = false
	}
	if o.wait.ok {
		p.wait = o.wait
	}
}

// failWatchdogItem reads the watchdog timeout a failure line's message carries (`what():
// [PG 3 Rank 5] Process group watchdog thread terminated with exception: [Rank 5] Watchdog
// caught collective operation timeout: WorkNCCL(SeqNum=9141, ...)`) as the watchdog line it
// quotes.
func failWatchdogItem(n int64, l *parser.Line) (Item, bool) {
	if l.Fail.Watchdog == nil {
		return Item{}, false
	}
	wl := *l
	wl.Watchdog = l.Fail.Watchdog
	return watchdogItem(n, &wl)
}

package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// A terminal or a paste wraps PyTorch's watchdog timeout line after its head, the WorkNCCL
// tuple starting the next line, with the head's launcher prefix or none:
//
//	host [stderr] [rank14]:[E909 09:55:29.307629539 ProcessGroupNCCL.cpp:607] [Rank 14] Watchdog caught collective operation timeout:
//	WorkNCCL(SeqNum=2070, OpType=REDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600034 milliseconds before timing out.
//
// Neither half is a watchdog line on its own (both are other text); diagnose joins them, as it
// waits for the message after `Last error:` (lasterror.go), and reads the whole as the one
// watchdog line it was.

// wdHeadEnd ends a watchdog head whose WorkNCCL tuple the next line holds.
var wdHeadEnd = []byte("Watchdog caught collective operation timeout:")

// wdBodyStart starts the line that holds the wrapped head's tuple, after its prefixes.
var wdBodyStart = []byte("WorkNCCL(")

// wdWait is a wrapped watchdog head waiting for its tuple on the next line.
type wdWait struct {
	ok   bool
	file string // "" until anchored
	line int64
	head string // the head line, its trailing blanks cut
}

// wdHead reports whether text is a wrapped watchdog head, and returns it without its
// trailing blanks. The last byte is tested first, by hand: this runs on every line of other
// text, where bytes.TrimRight's cutset cost more than the rest of reading the line.
func wdHead(text []byte) ([]byte, bool) {
	n := len(text)
	for n > 0 && (text[n-1] == ' ' || text[n-1] == '\t' || text[n-1] == '\r') {
		n--
	}
	if n == 0 || text[n-1] != ':' || n > parser.MaxRead || !bytes.HasSuffix(text[:n], wdHeadEnd) {
		return nil, false
	}
	return text[:n], true
}

// wdBody is the tuple line's text from `WorkNCCL(`, where it continues head: what comes
// before the tuple is blank or a prefix head's line starts with too (the same process's
// launcher prefixes).
func wdBody(head string, text []byte) ([]byte, bool) {
	i := bytes.Index(text, wdBodyStart)
	if i < 0 {
		return nil, false
	}
	pre := text[:i]
	if len(bytes.TrimSpace(pre)) > 0 && !bytes.HasPrefix([]byte(head), pre) {
		return nil, false // another process's line, or a tuple inside other text
	}
	return text[i:], true
}

// wdJoined is the watchdog item of head and body read as one line, numbered n (the head's).
func wdJoined(n int64, head string, body []byte) (Item, bool) {
	joined := make([]byte, 0, len(head)+1+len(body))
	joined = append(append(append(joined, head...), ' '), body...)
	g, err := parser.NewGrammar()
	if err != nil {
		return Item{}, false
	}
	l := g.Parse(joined[:min(len(joined), parser.MaxRead)])
	if l.Kind != parser.KindWatchdog {
		return Item{}, false
	}
	return watchdogItem(n, &l)
}

// addWrapped reads other text as a wrapped watchdog head, or as the tuple the head just
// before it waits for.
func (p *Part) addWrapped(l *stages.Line) {
	if w := p.wdWait; w.ok && w.file == "" && l.N == w.line+1 {
		p.wdWait.ok = false
		if body, ok := wdBody(w.head, l.Text); ok {
			if it, ok := wdJoined(w.line, w.head, body); ok {
				p.keep(it)
			}
			return
		}
	}
	if h, ok := wdHead(l.Text); ok {
		p.wdWait = wdWait{ok: true, line: l.N, head: string(h)}
	}
}

// mayEndColon reports whether text's last byte is a colon or a blank, as a wrapped head's is:
// the test addOther makes before addWrapped, inlined.
func mayEndColon(text []byte) bool {
	n := len(text)
	return n > 0 && (text[n-1] == ':' || text[n-1] == ' ' || text[n-1] == '\t' || text[n-1] == '\r')
}

// leadBody is the raw text of a chunk's first line where it may be a wrapped head's tuple.
func leadBody(text []byte) string {
	if !bytes.Contains(text, wdBodyStart) {
		return ""
	}
	return string(text[:min(len(text), parser.MaxRead)])
}

// anchorWrapped names the file of a wrapped head not anchored yet.
func (p *Part) anchorWrapped(o stages.Origin) {
	if p.wdWait.ok && p.wdWait.file == "" {
		p.wdWait.file, p.wdWait.line = o.File, p.wdWait.line+o.Base
	}
}

// mergeWrapped joins a wrapped head at p's end with o's first line where that holds its
// tuple, as one Partial reading both would have; o's wrapped head is p's after.
func (p *Part) mergeWrapped(o *Part) {
	w := p.wdWait
	if w.ok && w.file != "" && o.lead.ok && o.lead.body != "" && o.lead.file == w.file && o.lead.item.Line == w.line+1 {
		if body, ok := wdBody(w.head, []byte(o.lead.body)); ok {
			if it, ok := wdJoined(w.line, w.head, body); ok {
				it.File = w.file
				whole := p.anchored == len(p.items)
				p.keep(it)
				if whole {
					p.anchored = len(p.items)
				}
			}
		}
		p.wdWait.ok = false
	}
	if o.wdWait.ok {
		p.wdWait = o.wdWait
	}
}

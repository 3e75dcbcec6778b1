package diagnose

import (
	"github.com/nccllog/nccllog/stages"
)

// A framework's logger may print a job's exception under a head of its own, which the
// parser does not know: vLLM's (and so every RL or serving stack on it: verl, OpenRLHF)
// `LEVEL MM-DD HH:MM:SS file.py:N] `, behind Ray's worker prefix where vLLM runs under Ray,
// glog's `E0407 00:57:46.123456 12345 file.cc:45] `, and pytest's short summary of a failed
// test, `FAILED tests/test_dist.py::TestAllReduce::test - RuntimeError: NCCL error in: ...`:
//
//	(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] torch.distributed.DistBackendError: NCCL error in: ..., internal error ..., NCCL version 2.18.6
//	(RayWorkerVllm pid=7602) ERROR 04-07 00:57:46 ray_utils.py:45] ncclInternalError: Internal check failed.
//
// A paste indented as a block (a Markdown list's code, a mail's quote) puts blanks before
// PyTorch's own lines (`    [rank1]:[E1113 13:57:32.346752417 ProcessGroupNCCL.cpp:1896] ...`),
// whose prefixes the parser reads only where they open the line. Such a line of other text
// is read again without the logger's head (Ray's prefix kept), or behind its blanks.

// mayOpenLogger holds the bytes a line with a logger's head opens with: Ray's parenthesis,
// or a level's first letter.
var mayOpenLogger = [256]bool{'(': true, 'E': true, 'W': true, 'I': true, 'D': true, 'C': true, 'F': true}

// behindLogger is l, a line of other text, read again without the logger's head it holds
// (Ray's prefix before it kept); l where it holds none or the new reading is no line the
// parser reads.
func (p *Part) behindLogger(l *stages.Line) *stages.Line {
	t := l.Text
	s, e := loggerHead(t)
	if e == 0 {
		return l
	}
	c := *l
	c.Text = append(append(make([]byte, 0, s+len(t)-e), t[:s]...), t[e:]...)
	if r := p.reread(&c, 0); r != &c {
		return r
	}
	return l
}

// behindIndent is l, a line of other text that opens with blanks, read as the line behind
// them where a bracket follows them (PyTorch's `[rank1]:[E1113 ...]`, whose prefixes the
// parser reads only where they open the line), whatever the parser reads it as; l otherwise.
func (p *Part) behindIndent(l *stages.Line) *stages.Line {
	t := l.Text
	n := 1
	for n < len(t) && (t[n] == ' ' || t[n] == '\t') {
		n++
	}
	if n+2 >= len(t) || t[n] != '[' {
		return l
	}
	pl, ok := p.readAgain(t[n:]) // reread.go
	if !ok {
		return l
	}
	return readAs(l, t[n:], pl)
}

// otherLead holds the bytes a line of other text that otherAgain may take opens with: a
// blank or a tab (an indented paste, the desync report), a level's or glog's letter or Ray's
// parenthesis (a logger's head), a dash, a bracket or a T (the desync report). One look-up:
// every line of other text takes it.
var otherLead = func() (t [256]bool) {
	for _, c := range []byte(" \t-[T(EWIDCF") {
		t[c] = true
	}
	return t
}()

// otherAgain reads l, a line of other text of more than eight bytes whose first byte
// otherLead holds, as the line behind a paste's indent or a logger's head (Add takes that
// line instead), or as a line of PyTorch's desync report (desync.go). It reports whether it
// took the line.
func (p *Part) otherAgain(l *stages.Line) bool {
	t := l.Text
	var again *stages.Line
	switch {
	case t[0] == ' ' || t[0] == '\t':
		if mayBeDesync(t) {
			return p.addDesync(l)
		}
		again = p.behindIndent(l)
	case mayOpenLogger[t[0]] && (t[0] == '(' || t[1] >= 'A' && t[1] <= 'Z' || t[1] >= '0' && t[1] <= '9'):
		// A level's word is upper-case and glog's letter has digits after it: most lines
		// that open with one of those letters fail on their second byte.
		again = p.behindLogger(l)
	case mayBeDesync(t):
		return p.addDesync(l)
	}
	if again == nil || again == l {
		return false
	}
	p.Add(again)
	return true
}

package diagnose

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// NCCL retries a socket connect the peer refuses (or that times out) for about 20 seconds
// before it gives up with a WARN, and prints one INFO line every thousand tries:
//
//	worker-0:16:63 [0] NCCL INFO Call to connect returned Connection refused, retrying
//
// A job whose root comes up a little late prints a few and goes on; one whose peer never
// listens prints them until NCCL gives up, or until the job is killed. Retries alone prove
// no fault (a log cut while the job waits shows the same lines), but where a process's
// retries are not followed by its Init COMPLETE, and nothing else proves a fault, diagnose
// says so: status unknown, with the processes that were still retrying.

// retryHead opens the message of such a line.
var retryHead = []byte("Call to connect returned ")

// addRetry keeps an INFO line whose message, msg, is a connect retry; false where it is not.
func (p *Part) addRetry(n int64, msg []byte, l *parser.Line) bool {
	rest, ok := bytes.CutPrefix(msg, retryHead)
	if !ok || !bytes.HasSuffix(bytes.TrimRight(rest, " \r"), []byte(", retrying")) {
		return false
	}
	it := newItem(evConnRetry, n, l)
	it.Text = clip(bytes.TrimRight(msg, " \r"))
	p.keep(it)
	return true
}

// stillRetrying is the processes whose connect retries no Init COMPLETE of theirs followed
// in the same file, in the order of their first retry, with that retry; none where the log
// holds calls (its job got past its set-up, whether or not it logged Init COMPLETE).
func (b *builder) stillRetrying() ([]*proc, []*Item) {
	if b.calls {
		return nil, nil
	}
	var ps []*proc
	var its []*Item
	seen := map[*proc]bool{}
	for i := range b.e.Items {
		it := &b.e.Items[i]
		if it.Ev != evConnRetry {
			continue
		}
		p := b.x.of(it)
		if p == nil || seen[p] {
			continue
		}
		seen[p] = true
		if !b.completedAfter(p, it) {
			ps, its = append(ps, p), append(its, it)
		}
	}
	return ps, its
}

// completedAfter reports whether one of p's communicators completed its init after it, a
// line of p's.
func (b *builder) completedAfter(p *proc, it *Item) bool {
	b.indexComms()
	for _, c := range b.byProc[p] {
		if m := c.Complete; m != nil && m.File == it.File && m.Line > it.Line {
			return true
		}
	}
	return false
}

// retryFinding is the finding of processes still retrying a connect: no fault proven.
func retryFinding(ps []*proc, its []*Item) Finding {
	c := newCand(KindNetworkError, false)
	for i, p := range ps {
		c.add(its[i], -1, p)
	}
	words := strings.TrimPrefix(its[0].Text, string(retryHead))
	words = strings.TrimSuffix(words, ", retrying")
	c.summary = fmt.Sprintf("%s kept retrying a connect (%s), with no completed init after it: "+
		"the peer connected to (the bootstrap root, or another rank) was not listening or not reachable, "+
		"unless the log was cut while the job waited.", who(c), words)
	return c.finding()
}

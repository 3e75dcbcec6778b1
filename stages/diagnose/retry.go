package diagnose

import (
	"bytes"
	"fmt"

	"github.com/nccllog/nccllog/parser"
)

// NCCL retries a socket connect the peer refuses (or that times out, or finds no route to)
// before it gives up with a WARN. Up to 2.18 it prints one INFO line every thousand tries;
// later versions one a try, counted against the retries it allows (NCCL_SOCKET_RETRY_CNT,
// 34 by default), and from 2.2x with the address:
//
//	worker-0:16:63 [0] NCCL INFO Call to connect returned Connection refused, retrying
//	zgiot:1183664:1184669 [0] NCCL INFO socketPollConnect: connect returned No route to host, retrying (26/34) after sleep for 2600 msec
//	n1:77:90 [0] NCCL INFO socketPollConnect: connect to 10.0.0.1<29500> returned Connection refused, retrying (3/34) after sleep for 300 msec
//
// A job whose root comes up a little late prints a few and goes on; one whose peer never
// listens prints them until NCCL gives up, or until the job is killed. Retries alone prove
// no fault (a log cut while the job waits shows the same lines), but where a process's
// retries are not followed by its Init COMPLETE, and nothing else proves a fault, diagnose
// says so: status unknown, with the processes that were still retrying. A process that
// reached the last retry NCCL allows (34/34; in the first form, a thread's second
// `Connection timed out` line) has a single try left after
// many failing ones, and a log that shows nothing of it after (no Init COMPLETE, no call) is
// read as NCCL giving up: a network fault of that process.

// retryHead opens the message of the first form; the counted forms open with the function's
// name (socketPollConnect, socketStartConnect) and `: connect `.
var retryHead = []byte("Call to connect returned ")

// retry is what a connect retry's message says: the error, and for the counted forms the
// try and the tries allowed (0 where not counted).
type retry struct {
	err     string
	try, of int64
}

// readRetry reads a connect retry's message; false where msg is none.
func readRetry(msg []byte) (retry, bool) {
	msg = bytes.TrimRight(msg, " \r")
	if rest, ok := bytes.CutPrefix(msg, retryHead); ok {
		err, ok := bytes.CutSuffix(rest, []byte(", retrying"))
		return retry{err: string(err)}, ok && len(err) > 0
	}
	fn, rest, ok := bytes.Cut(msg, []byte(": connect "))
	if !ok || len(fn) == 0 || bytes.ContainsAny(fn, " \t") {
		return retry{}, false
	}
	_, rest, ok = bytes.Cut(rest, []byte("returned ")) // past `to <address> ` where printed
	if !ok {
		return retry{}, false
	}
	err, count, ok := bytes.Cut(rest, []byte(", retrying ("))
	if !ok || len(err) == 0 {
		return retry{}, false
	}
	try, n := decimalAt(count)
	if n == 0 || n >= len(count) || count[n] != '/' {
		return retry{}, false
	}
	of, m := decimalAt(count[n+1:])
	if m == 0 || n+1+m >= len(count) || count[n+1+m] != ')' || try <= 0 || try > of {
		return retry{}, false
	}
	return retry{err: string(err), try: try, of: of}, true
}

// spent reports whether r is the last retry NCCL allows.
func (r retry) spent() bool { return r.of > 0 && r.try >= r.of }

// uncountedLimit is how many of the first form's lines a connect that NCCL gives up on
// prints before its WARN, 0 where that is not read: a timed-out connect is tried 3 times
// (RETRY_TIMEDOUT_TIMES), each retry printed. (A refused one is tried 20,000 times in 20
// seconds, a line every thousand: 19 lines, more than diagnose keeps of one process's same
// line, and a root a little late prints a few.)
func uncountedLimit(err string) int64 {
	if err == "Connection timed out" {
		return 2
	}
	return 0
}

// retryThread is one process's thread's retries of one error, counted where NCCL's lines
// do not count them.
type retryThread struct {
	p   *proc
	tid int64
	err string
}

// addRetry keeps an INFO line whose message, msg, is a connect retry; false where it is not.
func (p *Part) addRetry(n int64, msg []byte, l *parser.Line) bool {
	if _, ok := readRetry(msg); !ok {
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
	var ps []*proc
	var its []*Item
	seen := map[*proc]bool{}
	b.eachRetry(func(_ int, it *Item, p *proc) {
		if !seen[p] {
			seen[p] = true
			if !b.completedAfter(p, it) {
				ps, its = append(ps, p), append(its, it)
			}
		}
	})
	return ps, its
}

// eachRetry calls f with each connect retry of a process the log names, in order, and its
// position; none where the log holds calls (its job got past its set-up).
func (b *builder) eachRetry(f func(i int, it *Item, p *proc)) {
	if b.calls {
		return
	}
	for i := range b.e.Items {
		if it := &b.e.Items[i]; it.Ev == evConnRetry {
			if p := b.x.of(it); p != nil {
				f(i, it, p)
			}
		}
	}
}

// completedAfter reports whether one of p's communicators completed its init after it, a
// line of p's.
func (b *builder) completedAfter(p *proc, it *Item) bool {
	for _, c := range b.commsOf(p) {
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
	r, _ := readRetry([]byte(its[0].Text))
	c.summary = fmt.Sprintf("%s kept retrying a connect (%s), with no completed init after it: "+
		"the peer connected to (the bootstrap root, or another rank) was not listening or not reachable, "+
		"unless the log was cut while the job waited.", who(c), r.err)
	return c.finding()
}

// retriesSpent files, as its own fault, each process that reached the last connect retry
// NCCL allows with no Init COMPLETE of its after it, in a log without calls: the retry's
// line and its process's first.
func (b *builder) retriesSpent() {
	first := map[*proc]int{}
	seen := map[retryThread]int64{}
	b.eachRetry(func(i int, it *Item, p *proc) {
		if _, ok := first[p]; !ok {
			first[p] = i
		}
		r, _ := readRetry([]byte(it.Text))
		if r.of == 0 { // the first form: its lines counted on their thread
			k := retryThread{p, it.Tid, r.err}
			seen[k]++
			r.try, r.of = seen[k], uncountedLimit(r.err)
		}
		if !r.spent() || b.completedAfter(p, it) || b.own[p] != nil {
			return
		}
		c := newCand(KindNetworkError, true)
		if j := first[p]; j != i {
			c.add(&b.e.Items[j], j, p)
		}
		c.add(it, i, p)
		c.summary = fmt.Sprintf("%s reached the last of the connect retries NCCL allows (%s: retry %d of %d), with no completed init after it: "+
			"the peer connected to (the bootstrap root, or another rank) was not listening or not reachable.", who(c), r.err, r.try, r.of)
		b.ownAdd(p, c)
	})
}

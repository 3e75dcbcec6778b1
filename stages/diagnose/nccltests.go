package diagnose

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// nccl-tests (all_reduce_perf and the others) checks each NCCL and CUDA call it makes, and
// where one fails prints the call's result with its host (cut at the first dot), then one
// line for each of its callers the error returns through, with the host and the process:
//
//	node1: Test NCCL failure common.cu:961 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '
//	 .. node1 pid 11537: Test failure common.cu:844
//	 .. node1 pid 11537: Test failure common.cu:1058
//
// (`Test CUDA failure <file>:<line> '<cudaGetErrorString>'` for a CUDA call.) Every failed
// run prints them, also where NCCL's own chain of return codes has no WARN. The first is the
// process's own result (an exception item, or a CUDA item for a CUDA call); pairTestTrails
// gives it the process of the trail line below it.

// Heads of the lines, after the host and `: ` (the first two) or after ` .. ` (the trail).
const (
	testNCCLHead  = "Test NCCL failure "
	testCUDAHead  = "Test CUDA failure "
	testTrailHead = ".. "
	testTrailMid  = ": Test failure "
)

// mayBeTestLine reports whether other text t may be an nccl-tests failure line: the result's
// line ends with a quote, a trail line with a digit and starts with its dots, a blank or a
// bracket (Open MPI's `[1,3]<stdout>:`). Most lines fail on their last or first byte, inline,
// where every line of other text takes this test.
func mayBeTestLine(t []byte) bool {
	n := len(t)
	if n < len(testNCCLHead) {
		return false
	}
	c := t[n-1]
	if c == ' ' || c == '\r' {
		c = t[n-2]
	}
	f := t[0]
	return c == '\'' || c >= '0' && c <= '9' && (f == ' ' || f == '.' || f == '[')
}

// addTestLine keeps other text that is an nccl-tests failure line (see above).
func (p *Part) addTestLine(l *stages.Line) {
	msg := bytes.TrimRight(parser.Unprefixed(l.Text), " \r")
	if it, ok := testResultItem(msg, l); ok {
		p.keep(it)
		return
	}
	if it, ok := testTrailItem(msg, l); ok {
		p.keep(it)
	}
}

// testLine reports whether t, other text of line l, is an nccl-tests line diagnose reads:
// its failure's result line or a trail line, or a rank line of its header (testhead.go).
func testLine(t []byte, l *stages.Line) bool {
	if mayBeTestRank(t) {
		return true
	}
	if !mayBeTestLine(t) {
		return false
	}
	msg := bytes.TrimRight(parser.Unprefixed(t), " \r")
	if _, ok := testResultItem(msg, l); ok {
		return true
	}
	_, ok := testTrailItem(msg, l)
	return ok
}

// testResultItem reads `<host>: Test NCCL failure <file>:<line> '<result> / <last error>'`
// (or `Test CUDA failure ... '<error>'`), and nccl-tests 1.x's `NCCL failure all_reduce.cu:95
// 'unhandled cuda error'`, which names no host.
func testResultItem(msg []byte, l *stages.Line) (Item, bool) {
	host, rest, ok := bytes.Cut(msg, []byte(": "))
	if bytes.HasPrefix(msg, []byte(testNCCLHead[len("Test "):])) || bytes.HasPrefix(msg, []byte(testCUDAHead[len("Test "):])) {
		host, rest, ok = nil, append([]byte("Test "), msg...), true
	} else if !ok || !hostWord(host) {
		return Item{}, false
	}
	ev := evException
	switch {
	case bytes.HasPrefix(rest, []byte(testNCCLHead)):
	case bytes.HasPrefix(rest, []byte(testCUDAHead)):
		ev = evCuda
	default:
		return Item{}, false
	}
	q := bytes.IndexByte(rest, '\'')
	if q < 0 || q == len(rest)-1 || !sourceAt(bytes.TrimSpace(rest[len(testNCCLHead):q])) {
		return Item{}, false
	}
	it := newItem(ev, l.N, l.P)
	it.Host, it.Text = string(host), clip(rest)
	if host == nil {
		it.Text = clip(msg) // the line's own words, without the `Test ` read into rest
	}
	if ev == evException {
		it.Code = int64(parser.ResultIn(string(rest)))
		if it.Code == 0 {
			it.Code = -1
		}
	}
	return it, true
}

// testTrailItem reads ` .. <host> pid <pid>: Test failure <file>:<line>`.
func testTrailItem(msg []byte, l *stages.Line) (Item, bool) {
	msg = bytes.TrimLeft(msg, " ")
	if !bytes.HasPrefix(msg, []byte(testTrailHead)) {
		return Item{}, false
	}
	who, at, ok := bytes.Cut(msg[len(testTrailHead):], []byte(testTrailMid))
	if !ok || !sourceAt(at) {
		return Item{}, false
	}
	host, pid, ok := bytes.Cut(who, []byte(" pid "))
	n, err := strconv.ParseInt(string(pid), 10, 64)
	if !ok || !hostWord(host) || err != nil || n < 0 {
		return Item{}, false
	}
	it := newItem(evTestTrail, l.N, l.P)
	it.Host, it.Pid, it.Text = string(host), n, "Test failure "+string(at)
	return it, true
}

// hostWord reports whether b may be a host name: one word, no colon.
func hostWord(b []byte) bool {
	return len(b) > 0 && !bytes.ContainsAny(b, " \t:'")
}

// sourceAt reports whether b is `<file>:<line>`.
func sourceAt(b []byte) bool {
	i := bytes.LastIndexByte(b, ':')
	if i <= 0 || i == len(b)-1 || bytes.ContainsAny(b[:i], " \t") {
		return false
	}
	for _, c := range b[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isTestFailure reports whether it is nccl-tests' result line in any form, 1.x's bare
// `NCCL failure ...` too.
func isTestFailure(it *Item) bool {
	t := strings.TrimPrefix(it.Text, "Test ")
	return (it.Ev == evException || it.Ev == evCuda) && (strings.HasPrefix(t, testNCCLHead[len("Test "):]) || strings.HasPrefix(t, testCUDAHead[len("Test "):]))
}

// isTestResult reports whether it is nccl-tests' result line (testResultItem).
func isTestResult(it *Item) bool {
	return (it.Ev == evException || it.Ev == evCuda) &&
		(strings.HasPrefix(it.Text, testNCCLHead) || strings.HasPrefix(it.Text, testCUDAHead))
}

// pairTestTrails gives each nccl-tests result line without a process the process of the
// first trail line below it of its host (in its file, within maxWhatLines lines), and drops
// the trail lines of a process whose result line is there: the result stands for them. A
// trail line with no result line above it (the paste starts below it) stays, the first of
// each process, read as that process's failure. Items are in file and line order (Evidence).
func pairTestTrails(items []Item) []Item {
	var heads []int // result lines without a process yet, oldest first
	seen := map[string]bool{}
	drop := map[int]bool{}
	for i := range items {
		it := &items[i]
		switch {
		case isTestResult(it) && it.Pid < 0:
			heads = append(heads, i)
		case it.Ev == evTestTrail:
			var given bool
			heads, given = giveTrail(items, heads, i)
			key := it.File + "\x00" + it.Host + "\x00" + strconv.FormatInt(it.Pid, 10)
			if given || seen[key] {
				drop[i] = true
			} else {
				it.Ev = evException // a process's failure whose cause the paste does not hold
			}
			seen[key] = true
		}
	}
	return without(items, drop) // terminate.go
}

// giveTrail gives the trail line items[t]'s process to the oldest result line of heads of
// its file and host within maxWhatLines lines above it, and returns the heads still
// without one (those too far above it dropped) and whether it gave it.
func giveTrail(items []Item, heads []int, t int) ([]int, bool) {
	tr := &items[t]
	kept := heads[:0]
	given := false
	for _, h := range heads {
		head := &items[h]
		switch {
		case head.File != tr.File || tr.Line-head.Line > maxWhatLines:
			continue
		case given || head.Host != tr.Host:
			kept = append(kept, h)
			continue
		}
		head.Pid, given = tr.Pid, true
	}
	return kept, given
}

// testResultsOnly reports whether c's evidence is nccl-tests' result lines alone: the
// result of the test's NCCL call, which where the process's init never completed is the
// init's error, not a failure of its own.
func testResultsOnly(c *cand) bool {
	for _, it := range c.items {
		if !isTestResult(it) {
			return false
		}
	}
	return len(c.items) > 0
}

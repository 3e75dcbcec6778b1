package parser

import "bytes"

// failureGlueWords are the heads of failure lines that may start after other text on their
// line (gFailGlued); the scanner's word search finds them.
var failureGlueWords = [...]string{"srun: ", "slurmstepd: ", "Traceback (", "terminate called", "Fatal Python", "OP_REQUIRES failed"}

// Masks of failure words in bareWords: the glued heads, and the words an exception line must
// hold (its name ends in Error or Exception, then ':').
var maskFailGlue, maskExcept uint32

func init() {
	for _, w := range failureGlueWords {
		maskFailGlue |= bareWords.add(w)
	}
	maskExcept = bareWords.add("Error:", "Exception:")
}

// failureHeads are, by first byte, the words that may open a failure line after the
// prefixes and indent (gFailMsg); torchrun's fields, exception lines and the rows of a RAS
// report are told apart by mayBeFailure.
var failureHeads = func() (t [256][]string) {
	for _, h := range [...]string{
		"srun:", "slurmstepd:", "Root Cause", "Other Failures:", "Failures:", "mpirun detected", "Primary job",
		"mpirun noticed", "mpiexec noticed", "orterun noticed", "prterun noticed", "oshrun noticed",
		"Process name:", "Exit code:", "Traceback (", "terminate called", "what():", "Segmentation fault",
		"Aborted (core", "Fatal Python", "*** SIG", "Job summary", "Group     Comms", "Communicators...",
		"Communicator ranks", "Missing communicator", "Initialization error", "Asynchronous error",
		"Last error:", "ncclUnhandledCudaError:", "ncclSystemError:", "ncclInternalError:",
		"ncclInvalidArgument:", "ncclInvalidUsage:", "ncclRemoteError:",
	} {
		t[h[0]] = append(t[h[0]], h)
	}
	return t
}()

// maxExceptionName is the longest exception name a line is read with (the dotted path of a
// Python exception: `torch.distributed.elastic.multiprocessing.errors.ChildFailedError` is 64).
const maxExceptionName = 160

// rasSections are the RAS report's section heads, each a line of its own.
var rasSections = [...]string{"Errors", "Warnings", "DEAD", "INCOMPLETE", "TIMEOUT"}

// failurePairs holds the first two bytes of every line mayBeFailure sends to its slower
// tests: the heads, a RAS report's entries (`#0`), rows (a digit, then a digit or white
// space), rank and process lines and section heads, the keys of its JSON form (a quote, then
// a letter), and white space (an indent). Most other
// text fails on one look-up.
var failurePairs = func() (p pairSet) {
	for _, hs := range failureHeads {
		for _, h := range hs {
			p.add(h[0], h[1])
		}
	}
	for _, s := range rasSections {
		p.add(s[0], s[1])
	}
	p.add('R', 'a')
	p.add('P', 'r')
	for c := range 256 { // a crash handler's `[host:pid] ...`: the grammar's Word opens with any byte
		p.add('[', byte(c))
	}
	for _, h := range agentHeads {
		p.add(h[0], h[1])
	}
	for c := byte('A'); c <= 'z'; c++ { // a RAS JSON field's key `"rank": 3,`
		p.add('"', c)
	}
	for c := range 256 {
		if isSp(byte(c)) { // an indent: the heads follow it
			for d := range 256 {
				p.add(byte(c), byte(d))
			}
		}
	}
	for d := byte('0'); d <= '9'; d++ {
		p.add('#', d)
		for c := range 256 {
			if isDigit(byte(c)) || isSp(byte(c)) {
				p.add(d, byte(c))
			}
		}
	}
	return p
}()

// pairSet is a set of two-byte strings, one bit each.
type pairSet [1 << 16 / 64]uint64

func (p *pairSet) add(a, b byte)      { k := uint(a)<<8 | uint(b); p[k/64] |= 1 << (k % 64) }
func (p *pairSet) has(a, b byte) bool { return p[uint(a)<<2|uint(b)>>6]&(1<<(b&63)) != 0 }

// mayBeFailure reports whether the grammar may read b (a whole line, read as other text, whose
// prefixes end at start; words is wordsIn of its text) as failure evidence. Lines for which
// it is false are never KindFailure. It is cheap on other text: the words were found by the
// search every bare line gets, and the line's first two bytes decide the rest.
func mayBeFailure(b []byte, start int, words uint32) bool {
	if start+1 < len(b) && words&(maskFailGlue|maskExcept) == 0 && !failurePairs.has(b[start], b[start+1]) {
		return false // the common case, inlined: no word, no indent, no head's first bytes
	}
	return mayBeFailureLine(b, start, words)
}

// mayBeFailureLine is mayBeFailure past its first test.
func mayBeFailureLine(b []byte, start int, words uint32) bool {
	if words&maskFailGlue != 0 {
		return true
	}
	rest := b[start:]
	i := spEnd(rest, 0)
	h := rest[i:]
	if len(h) < 2 {
		return false
	}
	if words&maskExcept != 0 && mayBeException(h) {
		return true
	}
	if i > 0 && len(h) > 10 && h[10] == ':' {
		if c := h[0]; c == 't' || c == 'h' || c == 'r' || c == 'e' {
			return true // torchrun's `  time      : ...`
		}
	}
	return failurePairs.has(h[0], h[1]) && mayBeFailureHead(h, words)
}

// mayBeFailureHead is mayBeFailure's test of a line's text h (after its indent) by its head.
func mayBeFailureHead(h []byte, words uint32) bool {
	for _, w := range failureHeads[h[0]] {
		if litSp(h, w) {
			return true
		}
	}
	if mayBeAgentExit(h) {
		return true // torchrun's agent on a failed child (scan_agent.go)
	}
	switch c := h[0]; {
	case c == '#': // a RAS entry `#0-0 (hash) MISMATCH`
		return isDigit(h[1]) && (bytes.Contains(h, []byte("MISMATCH")) || bytes.Contains(h, []byte("INCOMPLETE")) ||
			bytes.Contains(h, []byte("ERROR")) || bytes.Contains(h, []byte("INCOMPLETE")))
	case isDigit(c):
		return mayBeRASRow(h)
	case c == 'R':
		if litSp(h, "Rank ") {
			return bytes.Contains(h, []byte("--"))
		}
	case c == 'P':
		if litSp(h, "Process ") {
			return bytes.Contains(h, []byte("node"))
		}
	case c == '"':
		return mayBeRASJSON(h)
	case c == '[':
		return mayBeHandlerLine(h) // a crash handler's line (failure_handler.go)
	}
	for _, s := range rasSections {
		if lit(h, 0, s) { // alone on its line, or before its count `(2)`
			rest := h[len(s):]
			j := spEnd(rest, 0)
			return j == len(rest) || j > 0 && rest[j] == '('
		}
	}
	return false
}

// mayBeException reports whether h may open with an exception's name and its ':'. The name
// is made of identifier bytes and dots, so the test stops at the first byte that is neither:
// after a byte or two of binary text, after the first word of other text.
func mayBeException(h []byte) bool {
	if c := h[0]; c < 'A' || c > 'z' {
		return false
	}
	end := 0
	for end < len(h) && end <= maxExceptionName && dottedBytes[h[end]] {
		end++
	}
	if end == len(h) || h[end] != ':' || !hasSuffix(h[:end], "Error") && !hasSuffix(h[:end], "Exception") {
		return false // isExceptionName's suffix test, before its full one
	}
	return isExceptionName(h[:end])
}

// dottedBytes holds the bytes that may be in an exception's dotted name.
var dottedBytes = func() (t [256]bool) {
	for c := range 256 {
		b := byte(c)
		t[c] = b == '.' || b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	return t
}()

// scanFailure reads the failure lines a job prints most, a Python traceback's head and its
// exception line (or the ncclResult line under an NCCL exception), and the fields of a RAS report in JSON form (many lines each), as the
// grammar reads them (b is the whole line, its text starts at start);
// ok is false for every other line, which the grammar decides.
func (s *scanner) scanFailure(b []byte, start int, l *Line) bool {
	rest := b[start:]
	if f, ok := s.fails[string(rest)]; ok {
		l.Kind, l.Fail = KindFailure, f
		return true
	}
	if !scanFailure(b, start, l) {
		return false
	}
	if len(s.fails) >= maxFails {
		clear(s.fails)
	}
	s.fails[string(rest)] = l.Fail
	return true
}

// scanFailure reads a failure line for s.scanFailure, with no memory of lines before.
func scanFailure(b []byte, start int, l *Line) bool {
	rest := b[start:]
	h := rest[spEnd(rest, 0):]
	if len(h) > 0 && h[0] == '"' {
		return scanRASJSON(h, l) // where it reads none, the grammar decides
	}
	if lit(h, 0, "Traceback (most recent call last):") {
		f := noFailure
		f.Event = FailureTraceback
		l.Kind, l.Fail = KindFailure, &f
		return true
	}
	end, isHPT := tokenEnd(h, 0)
	if isHPT || end >= len(h) || h[end] != ':' || !isExceptionName(h[:end]) && resultNamed(string(h[:end])) == ResultNone {
		return false
	}
	m := end + 1
	if m < len(h) && !isSp(h[m]) {
		return false
	}
	f, ok := exceptionLine(noFailure, string(h[:end]), string(h[spEnd(h, m):]))
	l.Kind, l.Fail = KindFailure, &f
	return ok
}

// mayBeRASRow reports whether h, which opens with a digit, may be a row of a RAS report: a
// number, white space, then the row (`2 ranks have launched up to operation 38`, `1 job
// process`, a communicators table row ending in its status). Other text that opens with a
// digit is passed over without a search.
func mayBeRASRow(h []byte) bool {
	i := 0
	for i < len(h) && isDigit(h[i]) {
		i++
	}
	if i == len(h) || !isSp(h[i]) {
		return false
	}
	// Words rather than phrases: the grammar's white space between them is any.
	return bytes.Contains(h, []byte("ranks")) || bytes.Contains(h, []byte("job")) ||
		bytes.HasSuffix(bytes.TrimRight(h, " \t\r\n\f"), []byte("OK")) || bytes.Contains(h, []byte("MISMATCH")) || bytes.Contains(h, []byte("INCOMPLETE")) ||
		bytes.Contains(h, []byte("ERROR"))
}

// litSp reports whether h opens with head, where a run of spaces in head stands for a run of
// any white space in h, as the grammar's Sp token reads it (`Exit\tcode:`).
func litSp(h []byte, head string) bool {
	i := 0
	for j := 0; j < len(head); j++ {
		if head[j] != ' ' {
			if i == len(h) || h[i] != head[j] {
				return false
			}
			i++
			continue
		}
		for j+1 < len(head) && head[j+1] == ' ' {
			j++
		}
		if n := spEnd(h, i); n > i {
			i = n
		} else {
			return false
		}
	}
	return true
}

// failureStart returns where a failure line's text starts, past the prefixes that end at
// start: where a bare time opens the rest (a collector's `2024-05-01T10:00:00.123Z `, syslog's
// `May  1 10:00:00 `, a glog head), past it and the prefixes after it, with their rank (-1
// for none); start and -1 where none does. Bracketed times are prefixes already.
func failureStart(b []byte, start int) (int, int64) {
	s := stampedStart(b, start)
	if s == start {
		return start, -1
	}
	p, rank := scanPrefixes(b[s:])
	return s + p, rank
}

// stampedStart returns the end of a bare time at start and the white space after it, or start.
// Its first test, stampPairs, turns away most text on one look-up.
func stampedStart(b []byte, start int) int {
	if start+1 >= len(b) || !stampPairs.has(b[start], b[start+1]) || !mayOpenHead(b[start:]) {
		return start
	}
	if _, end := stampAt(b, start); end > 0 {
		return spEnd(b, end)
	}
	return start
}

// stampPairs holds the first two bytes of every bare time stampAt reads (a bracketed one is
// a prefix): a date's `20`, a glog head's level and month `E1`, a syslog month's `Ju`. Other
// text never moves stampedStart, which tests them first.
var stampPairs = func() (p pairSet) {
	for c := byte('0'); c <= '9'; c++ {
		for d := byte('0'); d <= '9'; d++ {
			p.add(c, d) // dateStamp: YYYY
		}
		for _, l := range []byte("IWEF") {
			p.add(l, c) // glogStamp: the level, then the month's digits
		}
	}
	for _, m := range monthNames {
		p.add(m[0], m[1]) // syslogStamp
	}
	return p
}()

// failGatePairs is failurePairs and stampPairs: a line whose text opens with neither, and
// holds no failure word, is no failure line (mayOpenFailure).
var failGatePairs = func() (p pairSet) {
	for k := range p {
		p[k] = failurePairs[k] | stampPairs[k]
	}
	return p
}()

// mayOpenFailure is the first test of scanBare's failure path, small enough to be inlined:
// false where failureStart(b, start) is start (no bare time opens the text) and
// mayBeFailure(b, start, words) is false, on one look-up for most other text.
func mayOpenFailure(b []byte, start int, words uint32) bool {
	return start+1 >= len(b) || words&(maskFailGlue|maskExcept) != 0 || failGatePairs.has(b[start], b[start+1])
}

// mayOpenIndented is scanBare's second test where mayOpenFailure passed text that opens with
// white space (no time opens it, so mayBeFailure decides): false where the text holds no
// failure word and, after its indent, opens with no head's first bytes and is no torchrun
// field (`  time      : ...`), as a traceback's frames and source lines seldom do.
func mayOpenIndented(b []byte, start int, words uint32) bool {
	j := spEnd(b, start)
	if j+1 >= len(b) || words&(maskFailGlue|maskExcept) != 0 {
		return true
	}
	return failurePairs.has(b[j], b[j+1]) || j+10 < len(b) && b[j+10] == ':'
}

// mayBeFailure is mayBeFailure with the exception names accepted lately kept: every rank
// prints the same exception line, and a line that opens with a kept name and its ':' is one
// mayBeException accepts, without the name's byte-by-byte tests.
func (s *scanner) mayBeFailure(b []byte, fs int, words uint32) bool {
	if words&maskExcept == 0 {
		return mayBeFailure(b, fs, words)
	}
	h := b[spEnd(b, fs):]
	for _, name := range s.excs {
		if len(name) > 0 && len(h) > len(name) && h[len(name)] == ':' && string(h[:len(name)]) == name {
			return true
		}
	}
	if len(h) < 2 || !mayBeException(h) {
		return mayBeFailure(b, fs, words)
	}
	s.excs[s.excNext%uint8(len(s.excs))] = string(h[:bytes.IndexByte(h, ':')])
	s.excNext++
	return true
}

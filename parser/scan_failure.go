package parser

import "bytes"

// failureGlueWords are the heads of failure lines that may start after other text on their
// line (gFailGlued); the scanner's word search finds them.
var failureGlueWords = [...]string{"srun: ", "slurmstepd: ", "Traceback (", "terminate called", "Fatal Python"}

// maskFailGlue is the bit of failureGlueWords in bareWords.
var maskFailGlue uint32

func init() {
	for _, w := range failureGlueWords {
		maskFailGlue |= bareWords.add(w)
	}
}

// failureHeads are, by first byte, the words that may open a failure line after the
// prefixes and indent (gFailMsg); torchrun's fields, exception lines and the rows of a RAS
// report are told apart by mayBeFailure.
var failureHeads = func() (t [256][]string) {
	for _, h := range [...]string{
		"srun:", "slurmstepd:", "Root Cause", "Other Failures:", "Failures:", "mpirun detected", "Primary job",
		"Process name:", "Exit code:", "Traceback (", "terminate called", "what():", "Segmentation fault",
		"Aborted (core", "Fatal Python", "*** SIG", "Job summary", "Group     Comms", "Communicators...",
		"Communicator ranks", "Missing communicator", "Initialization error", "Asynchronous error",
	} {
		t[h[0]] = append(t[h[0]], h)
	}
	return t
}()

// maxExceptionName is the longest exception name a line is read with (the dotted path of a
// Python exception: `torch.distributed.elastic.multiprocessing.errors.ChildFailedError` is 64).
const maxExceptionName = 160

// rasSections are the RAS report's section heads, each a line of its own (16 bytes at most,
// trailing white space included, and opening with a letter from D to W).
var rasSections = [...]string{"Errors", "Warnings", "DEAD", "INCOMPLETE", "TIMEOUT"}

// mayBeFailure reports whether the grammar may read b (a whole line, read as other text, whose
// prefixes end at start; words is wordsIn of its text) as failure evidence. Lines for which
// it is false are never KindFailure; it is cheap on other text (one table look-up by the
// first byte, and a search for ':' where that byte may open an exception's name).
func mayBeFailure(b []byte, start int, words uint32) bool {
	if words&maskFailGlue != 0 {
		return true
	}
	rest := b[start:]
	i := spEnd(rest, 0)
	h := rest[i:]
	if len(h) == 0 {
		return false
	}
	for _, w := range failureHeads[h[0]] {
		if lit(h, 0, w) {
			return true
		}
	}
	switch c := h[0]; {
	case i > 0 && len(h) > 10 && h[10] == ':' && (c == 't' || c == 'h' || c == 'r' || c == 'e'):
		return true // torchrun's `  time      : ...`
	case c == '#': // a RAS entry `#0-0 (hash) MISMATCH`
		return len(h) > 1 && isDigit(h[1]) && (bytes.Contains(h, []byte("MISMATCH")) ||
			bytes.Contains(h, []byte("ERROR")) || bytes.Contains(h, []byte("INCOMPLETE")))
	case isDigit(c):
		return mayBeRASRow(h)
	case c == 'R':
		if lit(h, 0, "Rank ") {
			return bytes.Contains(h, []byte(" -- "))
		}
	case c == 'P':
		if lit(h, 0, "Process ") {
			return bytes.Contains(h, []byte(" on node "))
		}
	}
	if c := h[0]; c >= 'D' && c <= 'W' && len(h) <= 16 {
		for _, s := range rasSections {
			if lit(h, 0, s) && len(bytes.TrimRight(h[len(s):], " \t\r\n\f")) == 0 {
				return true
			}
		}
	}
	if c := h[0]; c < 'A' || c > 'z' {
		return false
	}
	// An exception's name is followed by ':'; most text has none near its start.
	if bytes.IndexByte(h[:min(len(h), maxExceptionName+1)], ':') < 0 {
		return false
	}
	end, _ := tokenEnd(h, 0)
	return end < len(h) && h[end] == ':' && isExceptionName(string(h[:end]))
}

// scanFailure reads the failure lines a job prints most, a Python traceback's head and its
// exception line, as the grammar reads them (b is the whole line, its text starts at start);
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
	if lit(h, 0, "Traceback (most recent call last):") {
		f := noFailure
		f.Event = FailureTraceback
		l.Kind, l.Fail = KindFailure, &f
		return true
	}
	end, isHPT := tokenEnd(h, 0)
	if isHPT || end >= len(h) || h[end] != ':' || !isExceptionName(string(h[:end])) {
		return false
	}
	m := end + 1
	if m < len(h) && !isSp(h[m]) {
		return false
	}
	f := noFailure
	f.Event, f.Exception, f.Text = FailureException, string(h[:end]), failureText(string(h[spEnd(h, m):]))
	l.Kind, l.Fail = KindFailure, &f
	return true
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
	return bytes.Contains(h, []byte(" ranks ")) || bytes.Contains(h, []byte(" job process")) ||
		bytes.HasSuffix(bytes.TrimRight(h, " \t\r\n\f"), []byte("OK")) || bytes.Contains(h, []byte("MISMATCH")) ||
		bytes.Contains(h, []byte("ERROR"))
}

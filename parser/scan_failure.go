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
// prefixes and indent (gFailMsg); an exception line and the rows of a RAS report are told
// apart by mayOpenFailure.
var failureHeads = func() (t [256][]string) {
	for _, h := range [...]string{
		"srun:", "slurmstepd:", "Root Cause", "Other Failures:", "Failures:", "time ", "host ", "rank ", "exitcode ",
		"error_file:", "traceback ", "mpirun detected", "Primary job", "Process ", "Exit code:",
		"Traceback (", "terminate called", "what():", "Segmentation fault", "Aborted (core", "Fatal Python",
		"*** SIG", "Job summary", "Group ", "Communicator", "Errors", "Warnings", "DEAD", "INCOMPLETE",
		"TIMEOUT", "Missing communicator", "Initialization error", "Asynchronous error", "Rank ",
	} {
		t[h[0]] = append(t[h[0]], h)
	}
	return t
}()

// mayBeFailure reports whether the grammar may read b (a whole line, read as other text, whose
// prefixes end at start; words is wordsIn of its text) as failure evidence: a head of
// failureHeads opens its text, or it is an exception line or a RAS row, or a glued head is
// in it. Lines for which it is false are never KindFailure.
func mayBeFailure(b []byte, start int, words uint32) bool {
	if words&maskFailGlue != 0 {
		return true
	}
	rest := b[start:]
	h := rest[spEnd(rest, 0):]
	if len(h) == 0 {
		return false
	}
	for _, w := range failureHeads[h[0]] {
		if lit(h, 0, w) {
			return true
		}
	}
	if h[0] == '#' {
		return len(h) > 1 && isDigit(h[1]) // a RAS entry `#0-0 (hash) MISMATCH`
	}
	if isDigit(h[0]) {
		return bytes.Contains(h, []byte(" ranks ")) || bytes.Contains(h, []byte(" job process")) || bytes.Contains(h, []byte("      "))
	}
	k := bytes.IndexByte(h, ':')
	return k > 5 && (bytes.HasSuffix(h[:k], []byte("Error")) || bytes.HasSuffix(h[:k], []byte("Exception")))
}

// scanFailure reads the failure lines a job prints most, a Python traceback's head and its
// exception line, as the grammar reads them (b is the whole line, its text starts at start);
// ok is false for every other line, which the grammar decides.
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

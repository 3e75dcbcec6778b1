package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// A collector or logger puts its time before every line it keeps (`kubectl logs
// --timestamps`, `docker logs -t`: `2024-05-01T10:00:00.123456789Z `; a container's log
// file, `2024-05-01T10:00:00.123456789Z stdout F `; Python logging's
// `2024-05-01 10:00:00,123 `; syslog's `May  1 10:00:00 `). The parser reads
// the time and finds NCCL's envelope and the failure lines behind it; diagnose's readers of
// other text (a launcher's blocks, an exception's lines, Ray's prefix) read the text after
// it, as the process printed it. The line's time stays its P.Time.

// mayOpenTime is the first test of every line's text: it opens with a year's digits or a
// month's capital and a blank after three letters (`May  1 10:00:00`). Most lines fail it.
func mayOpenTime(t []byte) bool {
	return isDec(t[0]) && isDec(t[3]) || t[3] == ' ' && monthInitial[t[0]]
}

// tidied is l as its readers read it: its text without the time a collector put before it
// (of a line whose readers read its text: other text, a failure, watchdog, WARN or malformed
// line; a watchdog line's own time is its glog head, and a Ray prefix behind the
// collector's names the line's worker, see Part.prefixed), and without the blanks a paste
// left at its end.
func tidied(l *stages.Line) *stages.Line {
	if readsTime(l.P.Kind) {
		l = withoutTime(l)
	}
	if endsBlank(l.Text) {
		l = withoutTrailingBlanks(l)
	}
	return l
}

// withoutTime is l without the time its text opens with, or l where it opens with none.
func withoutTime(l *stages.Line) *stages.Line {
	n := timeLen(l.Text)
	if n == 0 || n == len(l.Text) {
		return l // no time, or a time alone: the line reads as it is
	}
	c := *l
	c.Text = l.Text[n:]
	return &c
}

// readsTime reports whether lines of kind k have readers of their text.
func readsTime(k parser.Kind) bool {
	switch k {
	case parser.KindOther, parser.KindFailure, parser.KindMalformed, parser.KindWatchdog, parser.KindWarn:
		return true
	}
	return false
}

// monthInitial holds the capitals months' names open with.
var monthInitial = [256]bool{'J': true, 'F': true, 'M': true, 'A': true, 'S': true, 'O': true, 'N': true, 'D': true}

// timeLen is the length of the bare time t opens with (a date's or syslog's) and of the
// blanks after it; 0 where it opens with none. A bracketed time is left: a logger's head
// opens with one (DeepSpeed's launcher's `[2024-03-05 10:11:12,345] [ERROR] [launch.py:321:
// ...`, Ray's C++ `[2024-12-24 23:47:14,381 E 3946 4620] logging.cc:101: ...`), which the
// readers of those lines know them by.
func timeLen(t []byte) int {
	if !opensDate(t) && !opensMonth(t) {
		return 0
	}
	// No launcher prefix opens with a date or a month's name: Unprefixed drops the time
	// alone (and its blanks), where the parser reads one there, and leaves a prefix behind it
	// as the process printed it.
	n := leadEnd(t)
	if n == 0 {
		return 0
	}
	return n + criTag(t[n:])
}

// leadEnd is where t's text begins behind the launcher prefixes and time it opens with, as
// the parser reads them, with its own indent kept (ownIndent); 0 where it opens with none.
func leadEnd(t []byte) int {
	n := len(t) - len(parser.Unprefixed(t))
	if n == 0 {
		return 0
	}
	return ownIndent(t, n)
}

// ownIndent is n, the length of a time and the blanks after it, less the blanks past the
// first: the collector puts one blank after its time, and those after it are the line's own
// (a torchrun root cause block's fields, a traceback's frames are known by their indent).
func ownIndent(t []byte, n int) int {
	end := n
	for end > 0 && (t[end-1] == ' ' || t[end-1] == '\t') {
		end--
	}
	if end < n {
		end++ // the collector's blank
	}
	return end
}

// criTag is the length of the stream and tag Kubernetes' container runtime writes after its
// time in a container's log file (`stdout F `, `stderr P `), 0 where t opens with none.
func criTag(t []byte) int {
	if len(t) < 9 || t[6] != ' ' || t[7] != 'F' && t[7] != 'P' || t[8] != ' ' {
		return 0
	}
	if s := string(t[:6]); s != "stdout" && s != "stderr" {
		return 0
	}
	return 9
}

// opensDate reports whether t opens with a year and a date's separator (`2024-`, `2024/`).
func opensDate(t []byte) bool {
	return len(t) > 5 && isDec(t[0]) && isDec(t[1]) && isDec(t[2]) && isDec(t[3]) &&
		(t[4] == '-' || t[4] == '/')
}

// opensMonth reports whether t opens with a month's name, a blank and a digit or a blank
// (syslog's `May  1 10:00:00`).
func opensMonth(t []byte) bool {
	if len(t) < 6 || t[3] != ' ' || !isDec(t[4]) && t[4] != ' ' {
		return false
	}
	switch string(t[:3]) {
	case "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec":
		return true
	}
	return false
}

// isDec reports whether c is a decimal digit.
func isDec(c byte) bool { return c >= '0' && c <= '9' }

// endsBlank reports whether t ends with a blank, or a blank and a CR.
func endsBlank(t []byte) bool {
	n := len(t)
	if n > 1 && t[n-1] == '\r' {
		n--
	}
	return n > 0 && (t[n-1] == ' ' || t[n-1] == '\t')
}

// withoutTrailingBlanks is l without the blanks its text ends with (a paste or an editor
// leaves them), and the CR after them: readers know nccl-tests' failure line by its closing
// quote, DeepSpeed's launcher's by its code at the end.
func withoutTrailingBlanks(l *stages.Line) *stages.Line {
	c := *l
	c.Text = bytes.TrimRight(l.Text, " \t\r")
	return &c
}

package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/stages"
)

// A user who redacts a head's pid and tid before pasting it (`host-01.example.com:XXXXXX
// [5]`, `node3:<pid>:<tid> [0]`) leaves a head the parser reads as a host alone (its
// host-only envelope, pid unknown): the last word before the device, which is the
// redaction. The host is the name the head opens with, before its first colon.

// unredacted is l with the host its head opens with, where the parser read a host-only
// envelope whose host follows a colon in the same head; l otherwise.
func unredacted(l *stages.Line) *stages.Line {
	e := &l.P.Env
	if e.Pid >= 0 || e.Host == "" {
		return l
	}
	t := l.Text
	at := hostBeforeDev(t, e.Host)
	if at <= 0 || t[at-1] != ':' {
		return l
	}
	start := at - 1
	for start > 0 && !headStop[t[start-1]] {
		start--
	}
	host, _, _ := bytes.Cut(t[start:at], []byte{':'})
	if !hostLike(host) {
		return l
	}
	c, pl := *l, *l.P
	pl.Env.Host = string(host)
	c.P = &pl
	return &c
}

// hostBeforeDev is where host starts in t followed by ` [`, as the device follows a head's
// host; -1 where it is nowhere so.
func hostBeforeDev(t []byte, host string) int { return bytes.Index(t, []byte(host+" [")) }

// headStop holds the bytes a head does not hold, which end the walk back to its start: a
// blank, and the brackets and `>` of what may come before it (a time, a label, a quote).
var headStop = [256]bool{' ': true, '\t': true, ']': true, '>': true, ')': true}

// hostLike reports whether b reads as a host name: letters, digits, `.`, `-` and `_`,
// opening with a letter or a digit and holding a letter, as the parser's host names do.
func hostLike(b []byte) bool {
	if len(b) == 0 || len(b) > 253 || !isAlnumByte(b[0]) {
		return false
	}
	letter := false
	for _, c := range b {
		if !isAlnumByte(c) && c != '.' && c != '-' && c != '_' {
			return false
		}
		letter = letter || !isDec(c) && isAlnumByte(c)
	}
	return letter
}

func isAlnumByte(c byte) bool { return isDec(c) || c|0x20 >= 'a' && c|0x20 <= 'z' }

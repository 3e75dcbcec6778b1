package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/stages"
)

// Ray colours its prefixes where its output is a terminal, and a log saved from one keeps the
// escapes: `ESC[2mESC[36m(raylet)ESC[0m A worker died or was killed ...`. Other text that
// opens with an escape is read without its SGR escapes (colours, bold, reset), as the line
// it shows.

// esc opens an ANSI escape.
const esc = 0x1b

// maxSGR bounds the length of one SGR escape (ESC [ digits and ';' m) that withoutSGR skips.
const maxSGR = 16

// withoutSGR is a copy of l whose text has no SGR escapes; its text is new, as the items of
// its evidence may keep it.
func withoutSGR(l *stages.Line) *stages.Line {
	if sgrLen(l.Text) == 0 {
		return l // an escape that is no colour: the line is read as it is
	}
	c := *l
	c.Text = stripSGR(l.Text)
	return &c
}

// stripSGR returns t without its SGR escapes, in a new slice.
func stripSGR(t []byte) []byte {
	out := make([]byte, 0, len(t))
	for len(t) > 0 {
		i := bytes.IndexByte(t, esc)
		if i < 0 {
			return append(out, t...)
		}
		out, t = append(out, t[:i]...), t[i:]
		if n := sgrLen(t); n > 0 {
			t = t[n:]
		} else {
			out, t = append(out, t[0]), t[1:]
		}
	}
	return out
}

// sgrLen is the length of the SGR escape t opens with, 0 where it opens with none.
func sgrLen(t []byte) int {
	if len(t) < 3 || t[0] != esc || t[1] != '[' {
		return 0
	}
	for i := 2; i < len(t) && i < maxSGR; i++ {
		switch c := t[i]; {
		case c == 'm':
			return i + 1
		case c != ';' && (c < '0' || c > '9'):
			return 0
		}
	}
	return 0
}

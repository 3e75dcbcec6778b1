package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/stages"
)

// Ray colours its prefixes where its output is a terminal, and a log saved from one keeps the
// escapes: `ESC[2mESC[36m(raylet)ESC[0m A worker died or was killed ...`; progress bars add
// others (`ESC[K`, erase to the line's end; `ESC[A`, cursor up). Other text that opens with
// an escape is read without its CSI escapes (ESC [, parameter bytes, a final byte: colours,
// 24-bit colours `ESC[38;2;255;128;0m`, cursor moves), as the line a terminal shows.

// esc opens an ANSI escape.
const esc = 0x1b

// maxCSI bounds the length of one CSI escape that withoutCSI skips.
const maxCSI = 32

// withoutCSI is a copy of l whose text has no CSI escapes; its text is new, as the items of
// its evidence may keep it.
func withoutCSI(l *stages.Line) *stages.Line {
	if csiLen(l.Text) == 0 {
		return l // an escape that is no CSI escape: the line is read as it is
	}
	c := *l
	c.Text = stripCSI(l.Text)
	return &c
}

// stripCSI returns t without its CSI escapes, in a new slice.
func stripCSI(t []byte) []byte {
	out := make([]byte, 0, len(t))
	for len(t) > 0 {
		i := bytes.IndexByte(t, esc)
		if i < 0 {
			return append(out, t...)
		}
		out, t = append(out, t[:i]...), t[i:]
		if n := csiLen(t); n > 0 {
			t = t[n:]
		} else {
			out, t = append(out, t[0]), t[1:]
		}
	}
	return out
}

// csiLen is the length of the CSI escape t opens with (ESC [, parameter bytes 0x30-0x3F,
// intermediate bytes 0x20-0x2F, a final byte 0x40-0x7E), 0 where it opens with none.
func csiLen(t []byte) int {
	if len(t) < 3 || t[0] != esc || t[1] != '[' {
		return 0
	}
	i := 2
	for i < len(t) && i < maxCSI && t[i] >= 0x30 && t[i] <= 0x3f {
		i++
	}
	for i < len(t) && i < maxCSI && t[i] >= 0x20 && t[i] <= 0x2f {
		i++
	}
	if i < len(t) && i < maxCSI && t[i] >= 0x40 && t[i] <= 0x7e {
		return i + 1
	}
	return 0
}

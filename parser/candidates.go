package parser

import "bytes"

// progressWords are the words every line the parser reads as KindProgress holds: "iteration"
// (NeMo, Megatron-LM) or "step" (torchtitan).
var progressWords = [...][]byte{[]byte("iteration"), []byte("step")}

// mayBeProgress reports whether b holds one of progressWords.
func mayBeProgress(b []byte) bool {
	for _, w := range progressWords {
		if bytes.Contains(b, w) {
			return true
		}
	}
	return false
}

// ProgressFinder finds, one after another, the lines of data that may be progress lines, so
// that a caller that needs only the step markers (split) can pass over the rest unread. Each
// word is searched for again only once the caller is past its last match: the whole data is
// searched once per word.
type ProgressFinder struct {
	data []byte
	next [len(progressWords)]int // offset of each word's next match; -1: none left
	from [len(progressWords)]int // where that search started
}

// NewProgressFinder starts finding in data.
func NewProgressFinder(data []byte) *ProgressFinder {
	f := &ProgressFinder{data: data}
	for i := range f.from {
		f.from[i] = -1
	}
	return f
}

// Next returns the start of the first line at or after off (a line start) that may be a
// progress line, or -1.
func (f *ProgressFinder) Next(off int) int {
	best := -1
	for i, w := range progressWords {
		if f.from[i] < 0 || f.next[i] >= 0 && f.next[i] < off || f.next[i] < 0 && f.from[i] > off {
			f.from[i] = off
			f.next[i] = bytes.Index(f.data[off:], w)
			if f.next[i] >= 0 {
				f.next[i] += off
			}
		}
		if n := f.next[i]; n >= 0 && (best < 0 || n < best) {
			best = n
		}
	}
	if best < 0 {
		return -1
	}
	return bytes.LastIndexByte(f.data[:best], '\n') + 1
}

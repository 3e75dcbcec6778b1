package parser

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgressFinderLinear walks a log whose every line holds a progress word but none is a
// progress line, as the step splitter does (each candidate read, then the search goes on
// after it), and counts the bytes the finder's searches pass over: each word's search goes
// over the input about once, not once per candidate, which made splitting quadratic.
func TestProgressFinderLinear(t *testing.T) {
	for _, text := range []string{"optimizer step done\n", "iteration done, step next\n", "no word here\n"} {
		data := []byte(strings.Repeat(text, 15000))
		f := NewProgressFinder(data)
		scanned := 0
		for off := 0; off < len(data); {
			from := f.from
			next := f.Next(off)
			for i, w := range progressWords {
				if f.from[i] != from[i] || from[i] < 0 { // a search started at f.from[i]
					end := len(data)
					if f.next[i] >= 0 {
						end = f.next[i] + len(w)
					}
					scanned += end - f.from[i]
				}
			}
			if next < 0 {
				break
			}
			if next < off {
				t.Fatalf("%q: Next(%d) = %d, before the offset", text, off, next)
			}
			off = next + bytes.IndexByte(data[next:], '\n') + 1
		}
		if limit := 2 * len(progressWords) * len(data); scanned > limit {
			t.Errorf("%q: the searches passed over %d bytes of a %d-byte input, more than %d", text, scanned, len(data), limit)
		}
	}
}

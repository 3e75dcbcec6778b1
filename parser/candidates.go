package parser

import "bytes"

// progressWords are the words every line the parser reads as KindProgress holds: "iteration"
// (NeMo, Megatron-LM) or "step" (torchtitan).
var progressWords = [...][]byte{[]byte("iteration"), []byte("step")}

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

// frameworkWords are the phrases of the lines PyTorch's ProcessGroupNCCL watchdog and flight
// recorder print (watchdogPhrases, which the watchdog grammar needs). The grammar reads such
// lines; the scanner leaves every line without an envelope that holds one of them to it
// (wordsIn finds them), and reads the others ("the watchdog heartbeat monitor is enabled").
var frameworkWords = func() (out [len(watchdogPhrases)][]byte) {
	for i, p := range watchdogPhrases {
		out[i] = []byte(p)
	}
	return out
}()

// envelopeLevels are the words that follow "NCCL" and white space in every envelope.
var envelopeLevels = [...]string{"INFO", "WARN", "TRACE", "ABORT", "CALL"}

// mayHoldEnvelope reports whether b may hold an NCCL envelope: every envelope holds "NCCL",
// white space and a level word. A line without one (application output that names
// ProcessGroupNCCL or an "NCCL error") is not NCCL's, which a byte search decides.
func mayHoldEnvelope(b []byte) bool {
	for {
		k := bytes.Index(b, []byte("NCCL"))
		if k < 0 {
			return false
		}
		b = b[k+4:]
		j := spEnd(b, 0)
		if j == 0 {
			continue
		}
		for _, lv := range envelopeLevels {
			if lit(b, j, lv) {
				return true
			}
		}
	}
}

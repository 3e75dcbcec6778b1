package parser

import "bytes"

// The words scanMsg looks for in a message that is no collective call: one that holds
// "NCCL" or "opCount" is left to the grammar (a second envelope, a damaged call), and gComm
// could match only a message that holds "comm", as every form of it holds the token `comm`.
// (scanComm decides the rest, as the grammar would.) Each is searched for by its rarest
// byte in INFO messages, which a message holds once or twice where it holds 'c' or 'o' a
// dozen times.
var msgWords = [...]anchoredWord{{"NCCL", 3}, {"opCount", 1}, {"comm", 2}}

// The bits of msgWords.
const (
	msgNCCL = 1 << iota
	msgOpCount
	msgComm
)

// anchoredWord is a word and the index of the byte it is searched for by.
type anchoredWord struct {
	w string
	a int
}

// msgWordsIn returns the set of msgWords that msg holds, as bits.
func msgWordsIn(msg []byte) (m uint32) {
	for k, w := range msgWords {
		if w.in(msg) {
			m |= 1 << k
		}
	}
	return m
}

// in reports whether b holds the word: at each byte equal to its anchor, in order, it
// compares the whole word around it.
func (w anchoredWord) in(b []byte) bool {
	hi := len(b) - len(w.w) + w.a + 1 // the anchor of a word in b is in [w.a, hi)
	for off := w.a; off < hi; {
		k := bytes.IndexByte(b[off:hi], w.w[w.a])
		if k < 0 {
			return false
		}
		if p := off + k - w.a; string(b[p:p+len(w.w)]) == w.w {
			return true
		}
		off += k + 1
	}
	return false
}

package parser

import "bytes"

// mayBeOldEnvelope reports whether the grammar may read b, a line without the word NCCL
// whose prefixes end at start, as a gOldLine: an HPT token opens its text, white space and
// `[` follow, and INFO or WARN is in it. The scanner leaves such lines to the grammar (NCCL
// 2.2 logs are rare); on other text it stops within the first token.
func mayBeOldEnvelope(b []byte, start int) bool {
	e := hptAt(b, start)
	if e < 0 || e >= len(b) || !isSp(b[e]) {
		return false
	}
	if j := spEnd(b, e); j >= len(b) || b[j] != '[' {
		return false
	}
	return bytes.Contains(b[e:], []byte("INFO")) || bytes.Contains(b[e:], []byte("WARN"))
}

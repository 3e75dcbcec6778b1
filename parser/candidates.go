package parser

import "bytes"

// NextProgressLine returns the offset of the start of the first line in data that may be a
// progress line, or -1. Every line the parser reads as KindProgress holds "iteration" (NeMo,
// Megatron-LM) or "step" (torchtitan), so a caller that needs only the step markers (split)
// can pass over everything before that line unread.
func NextProgressLine(data []byte) int {
	i := indexEither(data, "iteration", "step")
	if i < 0 {
		return -1
	}
	return bytes.LastIndexByte(data[:i], '\n') + 1
}

func indexEither(data []byte, a, b string) int {
	i := bytes.Index(data, []byte(a))
	lim := data
	if i >= 0 {
		lim = data[:i]
	}
	if j := bytes.Index(lim, []byte(b)); j >= 0 {
		return j
	}
	return i
}

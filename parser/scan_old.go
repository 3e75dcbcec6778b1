package parser

// takeOld reports, and forgets, whether scanWarn saw a head NCCL 2.2 may have printed: an HPT
// token that opens the line's text, ` [dev] ` after it, and no `NCCL WARN`, the head of every
// gOldLine (scanInfo and scanWarn test those bytes on every line that opens with an HPT). The
// scanner leaves such lines to the grammar (NCCL 2.2 logs are rare); a flag left over from a
// line that did not reach scanBare only sends one more line to the grammar, which decides.
func (s *scanner) takeOld() bool {
	old := s.oldHead
	s.oldHead = false
	return old
}

package parser

import "bytes"

// scanWarn reads `host:pid:tid [dev] location NCCL WARN message`, whose device ends at
// devEnd, as gEnvelope does: the location is any tokens but an HPT up to the first `NCCL`,
// white space and a level word. The grammar keeps nothing of a WARN's message, so the line
// is read once the envelope is; a message that holds "NCCL" (another record may run on in
// it) and any other level are left to the grammar.
func (s *scanner) scanWarn(b []byte, i, hptEnd, devEnd int, dev int64, l *Line, h shape) (uint64, bool) {
	if !lit(b, devEnd, "]") || devEnd+1 >= len(b) || !isSp(b[devEnd+1]) {
		return 0, false
	}
	m := warnLevelEnd(b, devEnd+1)
	s.oldHead = s.oldHead || m < 0 // no `NCCL WARN`: maybe NCCL 2.2's envelope (scan_old.go)
	if m < 0 || m < len(b) && !isSp(b[m]) || bytes.Contains(b[m:], []byte("NCCL")) {
		return 0, false
	}
	hw, ok := s.hpt(b[i:hptEnd])
	if !ok {
		return 0, false
	}
	l.Kind = KindWarn
	l.Env = Envelope{Host: hw.Host, Pid: hw.Pid, Tid: hw.Tid, Dev: dev, Level: LevelWarn}
	return uint64(h.add(byte(KindWarn)).addWord(b[spEnd(b, m):])), true
}

// warnLevelEnd walks the location tokens from k and returns the end of `NCCL Sp WARN`, or
// -1 where an HPT token or another level comes first.
func warnLevelEnd(b []byte, k int) int {
	for k < len(b) {
		end, isHPT := tokenEnd(b, k)
		if isHPT {
			return -1
		}
		if end-k == 4 && string(b[k:end]) == "NCCL" {
			j := spEnd(b, end)
			lv := word(b, j)
			switch {
			case j == end:
			case string(lv) == "WARN":
				return j + len(lv)
			case string(lv) == "INFO" || string(lv) == "TRACE" || string(lv) == "ABORT":
				return -1
			}
		}
		k = end
	}
	return -1
}

package parser

// scanHostLine reads an INFO or WARN line whose envelope is `host [dev]` without pid:tid, as
// gHostLine does, where b holds no HPT envelope (scanEnvelope found none) and the text after
// the prefixes (from start) is damageReason's reasonNoEnvelope. It answers only where it is
// sure: lines the progress, framework or version grammars may read, TRACE and ABORT lines,
// and lines that would stay malformed are left to the grammar.
func (s *scanner) scanHostLine(b []byte, start int, l *Line, h shape) (uint64, bool) {
	rest := b[start:]
	words := wordsIn(rest)
	if words&(maskProgress|maskFramework) != 0 || mayBeVersion(rest) {
		return 0, false
	}
	if k, r := damageReason(rest); k != KindMalformed || r != reasonNoEnvelope {
		return 0, false
	}
	for i := start; i < len(b); {
		end, isHPT := tokenEnd(b, i)
		if !isHPT && isWordByte(b[i]) && !isSp(b[i]) && !isPunct(b[i]) {
			if env, ok := hostEnvAt(b, i, end); ok {
				if !hostStarts(b, start, i) {
					return 0, false // as gHostLine's first host, glued: no host line
				}
				return s.hostLine(b, i, env, l, h)
			}
		}
		i = end
	}
	return 0, false
}

// hostEnv is where the parts of a host-only envelope lie in its line.
type hostEnv struct {
	hostEnd  int // the host is b[i:hostEnd]
	devStart int // the device is b[devStart:devEnd], '-' and all
	devEnd   int
	level    []byte
	levelEnd int
}

// hostEnvAt matches gHostLine's lookahead at the Word token b[i:end]: `Word ('-' Word)* Sp
// '[' '-'? Word ']' Sp`, then location tokens without an HPT up to `NCCL Sp LEVEL`.
func hostEnvAt(b []byte, i, end int) (hostEnv, bool) {
	var e hostEnv
	j := end
	for j < len(b) && b[j] == '-' {
		we, ok := wordAt(b, j+1)
		if !ok {
			break
		}
		j = we
	}
	e.hostEnd = j
	if j >= len(b) || !isSp(b[j]) {
		return e, false
	}
	j = spEnd(b, j)
	if !lit(b, j, "[") {
		return e, false
	}
	e.devStart = j + 1
	j++
	if lit(b, j, "-") {
		j++
	}
	we, ok := wordAt(b, j)
	if !ok || !lit(b, we, "]") || we+1 >= len(b) || !isSp(b[we+1]) {
		return e, false
	}
	e.devEnd = we
	e.levelEnd, e.level = levelAfter(b, spEnd(b, we+1))
	return e, e.levelEnd >= 0
}

// wordAt returns the end of the Word token at j, where there is one.
func wordAt(b []byte, j int) (int, bool) {
	if j >= len(b) || isSp(b[j]) || isPunct(b[j]) {
		return 0, false
	}
	end, isHPT := tokenEnd(b, j)
	return end, !isHPT && end > j
}

// levelAfter walks location tokens from k and returns the end of the first `NCCL Sp LEVEL`
// (INFO, WARN, TRACE or ABORT) and the level, or -1 where an HPT token or the line's end
// comes first.
func levelAfter(b []byte, k int) (int, []byte) {
	for k < len(b) {
		end, isHPT := tokenEnd(b, k)
		if isHPT {
			return -1, nil
		}
		if end-k == 4 && string(b[k:end]) == "NCCL" {
			j := spEnd(b, end)
			if lv, ok := wordAt(b, j); ok && j > end {
				switch string(b[j:lv]) {
				case "INFO", "WARN", "TRACE", "ABORT":
					return lv, b[j:lv]
				}
			}
		}
		k = end
	}
	return -1, nil
}

// hostLine fills l from the host-only envelope at b[i:] and returns the line's shape; it
// leaves to the grammar what would not read (a host or device that is none, a level glued
// to text) and the TRACE and ABORT levels.
func (s *scanner) hostLine(b []byte, i int, e hostEnv, l *Line, h shape) (uint64, bool) {
	lv := levelFromWord(string(e.level))
	if lv != LevelInfo && lv != LevelWarn || e.levelEnd < len(b) && !isSp(b[e.levelEnd]) {
		return 0, false
	}
	dev, err := parseDec(b[e.devStart:e.devEnd])
	if err != nil || !isHostName(b[i:e.hostEnd]) {
		return 0, false
	}
	host, _ := s.internCached(b[i:e.hostEnd])
	s.thread = nil // no thread: no tails to reuse or keep
	l.Kind = kindOfLevel(lv)
	l.Env = Envelope{Host: host, Pid: -1, Tid: -1, Dev: dev, Level: lv}
	return uint64(h.add(byte(l.Kind)).add('h').addWord(b[spEnd(b, e.levelEnd):])), true
}

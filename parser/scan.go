package parser

import (
	"bytes"
	"encoding/binary"
)

// scanner reads the common line shapes by hand, mirroring the grammar. It answers only where
// it is sure the grammar would read the line the same way; otherwise it says so and the
// grammar decides. It is not safe for concurrent use (it interns host and op names).
type scanner struct {
	names  map[string]string
	recent [1 << recentBits]recentName // names interned lately, by nameSlot, tried before the map
	ops    [16]recentName              // op names of recent collective lines, by their first eight bytes
	hpts   [256]hptSlot
	// tags holds the hptHash of each slot's token, so that a thread new to its slot is told
	// from the slot's own without reading the slot: nearly every line of a 4,096-rank init
	// is one, and the slots take 230 KB.
	tags   [256]uint64
	thread *hptSlot // the slot of the line being read
	// fails holds the failure lines read lately, by their text after the prefixes: every
	// rank prints the same traceback, and a Failure, never changed once read, can be shared.
	fails map[string]*Failure
	// oldHead says scanWarn saw a head NCCL 2.2 may have printed (scan_old.go).
	oldHead bool
	// excs holds the exception names mayBeException accepted lately, the next to go at
	// excNext (scanner.mayBeFailure).
	excs    [4]string
	excNext uint8
}

// maxFails bounds fails; past it the map starts again.
const maxFails = 256

func newScanner() *scanner {
	return &scanner{names: make(map[string]string), fails: make(map[string]*Failure)}
}

// intern returns a string equal to b without allocating for names already seen, so that
// records do not pin the read buffer.
func (s *scanner) intern(b []byte) string {
	if v, ok := s.names[string(b)]; ok {
		return v
	}
	if len(s.names) >= 1<<16 {
		return string(b)
	}
	v := string(b)
	s.names[v] = v
	return v
}

// hptSlot is a host:pid:tid token seen before and what it reads as.
type hptSlot struct {
	// key holds the token (its first rawLen bytes), and up to headLen the thread's head
	// `host:pid:tid [dev] NCCL INFO` as it last printed it, read in full then: a line that
	// starts with the same bytes has the same envelope. They are kept in place, so that a
	// thread new to the slot costs no allocation (a 4,096-rank init has more threads than
	// slots). A token or head too long for key is not kept (its length stays 0).
	key             [hptKeyMax]byte
	rawLen, headLen uint8
	hw              hptWord
	dev             int64
	tails           tailMemo
}

// hptKeyMax is the longest head kept: a host name of up to about 60 bytes.
const hptKeyMax = 96

func (t *hptSlot) head() []byte { return t.key[:t.headLen] }

// setHead keeps head, which starts with the slot's token, and the device it names.
func (t *hptSlot) setHead(head []byte, dev int64) {
	t.headLen, t.dev = 0, dev
	if len(head) <= hptKeyMax {
		t.headLen = uint8(copy(t.key[:], head))
	}
}

// hpt reads a host:pid:tid token. A thread's lines repeat the same bytes, so tokens are kept
// in a small direct-mapped table and read only when new.
func (s *scanner) hpt(b []byte) (hptWord, bool) {
	h := hptHash(b)
	k := hptSlotOf(h)
	slot := &s.hpts[k]
	s.thread = slot
	if s.tags[k] == h && int(slot.rawLen) == len(b) && string(slot.key[:len(b)]) == string(b) {
		return slot.hw, true
	}
	var hw hptWord
	if hw.captureBytes(b, s) != nil {
		s.thread = nil
		return hw, false
	}
	slot.hw, slot.dev, slot.rawLen, slot.headLen = hw, 0, 0, 0
	if len(b) <= hptKeyMax {
		slot.rawLen = uint8(copy(slot.key[:], b))
	}
	s.tags[k] = h
	slot.tails.forget()
	return hw, true
}

// hptHash hashes a host:pid:tid token: its first, middle and last eight bytes, which tell
// apart hosts, processes and threads. (The last two bytes alone put one token in nine in a
// slot taken by another thread of a 50-thread log, and those lines were read in full.)
func hptHash(b []byte) uint64 {
	n := len(b)
	var h uint64
	if n >= 8 {
		h = binary.LittleEndian.Uint64(b[n-8:])*0x9E3779B97F4A7C15 ^
			binary.LittleEndian.Uint64(b[n/2-4:])*0xC2B2AE3D27D4EB4F ^
			binary.LittleEndian.Uint64(b)*0x165667B19E3779F9
	} else {
		for _, c := range b {
			h = (h + uint64(c)) * 0x9E3779B97F4A7C15
		}
	}
	return (h ^ uint64(n)) * 0x9E3779B97F4A7C15
}

// hptSlotOf is the slot of a token with hash h.
func hptSlotOf(h uint64) uint { return uint(h >> 56) }

// internCached is intern with the names seen lately tried first: hosts and ops repeat, and a
// 4,096-rank job's lines come from hundreds of hosts. It also returns the name's shape hash
// (shape.addWord of the name), which is kept with it.
func (s *scanner) internCached(b []byte) (string, shape) {
	slot := &s.recent[nameSlot(b)]
	if len(slot.name) == len(b) && slot.name == string(b) {
		return slot.name, slot.hash
	}
	*slot = recentName{name: s.intern(b), hash: shape(0).addWord(b)}
	return slot.name, slot.hash
}

// nameSlot hashes a name by its length and its first and last eight bytes (the number of a
// host such as gpu-node-0042 is at its end).
func nameSlot(b []byte) uint {
	n := len(b)
	h := uint64(n)
	if n >= 8 {
		h ^= binary.LittleEndian.Uint64(b)*0x9E3779B97F4A7C15 ^ binary.LittleEndian.Uint64(b[n-8:])*0xC2B2AE3D27D4EB4F
	} else {
		for _, c := range b {
			h = (h + uint64(c)) * 0x9E3779B97F4A7C15
		}
	}
	return uint((h * 0x9E3779B97F4A7C15) >> (64 - recentBits))
}

// recentBits sizes scanner.recent: 2,048 slots, so that the hosts of a 4,096-rank job (512
// and more) seldom take each other's slot and send the lookup to the map (with 512 slots,
// a third of an init's lines did).
const recentBits = 11

type recentName struct {
	name string
	hash shape
}

// scan reads line into l. It returns false where the grammar must decide, and otherwise the
// shape of the line: lines of one shape are read by the same path through the scanner. The
// line's time is read as the grammar reads it, and only where its first byte may open one.
func (s *scanner) scan(line []byte, l *Line) (shape uint64, ok bool) {
	b := trimCR(line)
	start, rank := scanPrefixes(b)
	*l = Line{Rank: rank}
	h := newShape(b[:start])
	rest := b[start:]
	if spEnd(rest, 0) == len(rest) {
		l.Kind = KindBlank
		l.Time = headStamp(b)
		return uint64(h.add(byte(KindBlank))), true
	}
	if sh, ok := s.scanHeadInfo(b, start, l, h); ok {
		// The envelope follows the prefixes: a time lies among them, or is the envelope's
		// own text (`2025-06-11T14:03:11 [0] NCCL INFO` reads as host 2025-06-11T14, pid 3,
		// tid 11, and the grammar reads its time too), or is nowhere. A time among the
		// prefixes is a bracketed date, which `[rank3]:` is too short to hold.
		if start >= minPrefixStamp && hasClock(b[:start]) {
			l.Time = lineStamp(b)
		} else if isDigit(b[start]) {
			l.Time = headStamp(b)
		}
		return sh, true
	}
	words := wordsIn(rest)
	if words&maskNCCL != 0 && mayHoldEnvelope(rest) {
		if rec, isRec := harnessRecord(rest, words); isRec {
			shape, ok = s.scanBareRecord(rec, l, h)
		} else {
			shape, ok = s.scanEnvelope(b, start, l, h)
		}
	} else {
		shape, ok = s.scanBare(b, start, l, h, words)
	}
	if ok && len(b) > 0 && mayOpenStamp(b[0]) {
		l.Time = afterPrefixStamp(b, start)
	}
	return shape, ok
}

// scanHeadInfo is the common case: an INFO envelope right after the prefixes. It answers only
// where scanEnvelope would answer the same: the first token is the envelope's HPT.
func (s *scanner) scanHeadInfo(b []byte, i int, l *Line, h shape) (uint64, bool) {
	if i >= len(b) {
		return 0, false
	}
	if class[b[i]]&clsAlnum == 0 {
		if b[i] != '<' && b[i] != ':' {
			return 0, false
		}
		// A redacted host (scan_tokens.go): read in full, as any new head.
	} else if m, ok := s.knownHead(b, i, l); ok {
		return s.scanMsg(b, m, l, h)
	}
	end := hptAt(b, i)
	if end < 0 || !lit(b, end, " [") {
		return 0, false
	}
	return s.scanInfo(b, i, end, l, h)
}

// knownHead reads the envelope at b[i:] where it repeats, byte for byte, the head its thread
// printed last, and returns where the head ends. scanInfo read those bytes in full once, and
// the same bytes followed by white space or nothing read the same.
func (s *scanner) knownHead(b []byte, i int, l *Line) (int, bool) {
	sp := bytes.IndexByte(b[i:], ' ')
	if sp <= 0 {
		return 0, false
	}
	h := hptHash(b[i : i+sp])
	k := hptSlotOf(h)
	if s.tags[k] != h {
		return 0, false
	}
	slot := &s.hpts[k]
	m := i + int(slot.headLen)
	if slot.headLen == 0 || m > len(b) || string(b[i:m]) != string(slot.head()) || (m < len(b) && !isSp(b[m])) {
		return 0, false
	}
	s.thread = slot
	// Field by field: a struct literal is built on the stack and copied in 16-byte moves that
	// wait on its 8-byte stores, the costliest instruction of a collective line.
	e := &l.Env
	e.Host, e.Pid, e.Tid, e.Dev, e.Level = slot.hw.Host, slot.hw.Pid, slot.hw.Tid, slot.dev, LevelInfo
	return m, true
}

// scanBare reads a line that holds no envelope, and the set of bareWords it holds: it is not
// an NCCL line, and unless it may be a progress line, a framework line the grammar knows or
// the version line, it is other text or damaged NCCL output. Such a line's shape leaves out
// its words: a job's own output starts with any word, and every new shape costs a grammar run.
func (s *scanner) scanBare(b []byte, start int, l *Line, h shape, words uint32) (uint64, bool) {
	rest := b[start:]
	if words&maskFramework != 0 || mayBeVersion(rest) || s.takeOld() {
		return 0, false // the version block, or rare lines the watchdog grammar reads
	}
	if words&maskProgress != 0 {
		found, ok := scanProgress(b, start, l.Rank, l)
		if !ok {
			return 0, false
		}
		if found {
			return uint64(h.add(byte(KindProgress)).addWord([]byte(l.Prog.Framework))), true
		}
		*l = Line{Rank: l.Rank}
	}
	if words&maskDamage != 0 {
		l.Kind, l.Reason = damageReason(rest)
		if l.Kind == KindMalformed && bytes.Contains(rest, []byte(opCountMark)) {
			return s.scanBareRecord(rest, l, h)
		}
	}
	if l.Kind != KindOther {
		return uint64(h.add(byte(l.Kind)).addWord([]byte(l.Reason))), true
	}
	if !mayOpenFailure(b, start, words) || isSp(b[start]) && !mayOpenIndented(b, start, words) {
		return uint64(h.add(byte(l.Kind)).addWord([]byte(l.Reason))), true
	}
	if fs, rank := failureStart(b, start); s.mayBeFailure(b, fs, words) {
		if !s.scanFailure(b, fs, l) {
			return 0, false // rare failure lines: the grammar reads them
		}
		if l.Rank < 0 {
			l.Rank = rank
		}
		return uint64(h.add(byte(KindFailure)).add(byte(l.Fail.Event))), true
	}
	return uint64(h.add(byte(l.Kind)).addWord([]byte(l.Reason))), true
}

// harnessRecord returns the record of a test harness's line `NCCL INFO AllReduce: ...`:
// rest opens with that head, and names NCCL nowhere else, so it holds no envelope (every
// envelope holds "NCCL"); a progress or framework word leaves the line to the grammar.
func harnessRecord(rest []byte, words uint32) ([]byte, bool) {
	const head = "NCCL INFO "
	if words&(maskProgress|maskFramework) != 0 || !lit(rest, 0, head) || bytes.Contains(rest[4:], []byte("NCCL")) {
		return nil, false
	}
	return rest[len(head):], true
}

// scanBareRecord reads a collective record pasted without its envelope, where it opens rest
// (the line after its prefixes) as lastRecord reads it: a record after other text, or whose
// op may have taken some of that text, is left to the grammar. A record read to its end
// holds no second ": opCount " (no field's text holds ": "), so it is the line's last.
func (s *scanner) scanBareRecord(rest []byte, l *Line, h shape) (uint64, bool) {
	op := word(rest, 0)
	if len(op) == 0 || !lit(rest, len(op), opCountMark) || opCut("", string(op)) != 0 {
		return 0, false
	}
	*l = Line{Rank: l.Rank}
	s.thread = nil // no thread: no tails to reuse or keep
	name, hash := s.internCached(op)
	return s.scanCollective(rest, recentName{name, hash}, l, h.add(byte(KindOther)))
}

// scanEnvelope finds the envelope the way gNCCLLine's junk loop does and reads an INFO line.
func (s *scanner) scanEnvelope(b []byte, i int, l *Line, h shape) (uint64, bool) {
	start, prev := i, -1 // start of the token before, when it is an HPT
	for i < len(b) {
		end, isHPT := tokenEnd(b, i)
		if isHPT && end < len(b) && isSp(b[end]) {
			j := spEnd(b, end)
			if j < len(b) && (b[j] == '[' || b[j] == 'N') {
				if hostCut(b, start, i) {
					return 0, false // a host run on from the text before: the grammar cuts it
				}
				sh, ok := s.scanInfo(b, i, end, l, h)
				// A record run straight on from another process's cut-off head.
				l.Spliced = prev >= 0 && isCutHead(b[prev:i])
				return sh ^ boolShape(l.Spliced), ok
			}
		}
		prev = -1
		if isHPT {
			prev = i
		}
		i = end
	}
	return s.scanHostLine(b, start, l, h)
}

// hostCut reports whether the host of the HPT token at b[i:] loses bytes to the text between
// the prefixes (which end at start) and it, as cutGluedHost decides.
func hostCut(b []byte, start, i int) bool {
	if i == start {
		return false
	}
	e := i
	for e < len(b) && b[e] != ':' {
		e++
	}
	return gluedHostCut(string(b[start:i]), string(b[i:e])) > 0
}

func boolShape(b bool) uint64 {
	if b {
		return 0x9e3779b97f4a7c15
	}
	return 0
}

// scanInfo reads `host:pid:tid [dev] NCCL INFO message` with single spaces.
func (s *scanner) scanInfo(b []byte, i, hptEnd int, l *Line, h shape) (uint64, bool) {
	j := hptEnd
	if !lit(b, j, " [") {
		return 0, false
	}
	devEnd, dev := decWordSigned(b, j+2)
	if devEnd < 0 {
		return 0, false
	}
	if !lit(b, devEnd, "] NCCL INFO") {
		return s.scanWarn(b, i, hptEnd, devEnd, dev, l, h)
	}
	m := devEnd + len("] NCCL INFO")
	if m < len(b) && !isSp(b[m]) {
		return 0, false
	}
	hw, ok := s.hpt(b[i:hptEnd])
	if !ok {
		return 0, false
	}
	l.Env = Envelope{Host: hw.Host, Pid: hw.Pid, Tid: hw.Tid, Dev: dev, Level: LevelInfo}
	if t := s.thread; string(t.head()) != string(b[i:m]) {
		t.setHead(b[i:m], dev)
	}
	return s.scanMsg(b, m, l, h)
}

// scanMsg reads the message of an INFO line whose envelope ends at m.
func (s *scanner) scanMsg(b []byte, m int, l *Line, h shape) (uint64, bool) {
	msg := b[spEnd(b, m):]
	h = h.add(byte(KindInfo))
	// A collective read to its end leaves no room for a second envelope.
	if op, ok := s.knownOp(msg); ok {
		return s.scanCollective(msg, op, l, h)
	}
	// The op is the Word at the start: a Word followed by ": " holds no ':', so no HPT
	// token can start inside it, and the lexer's Word is the run of bytes before ':'. Only a
	// message that holds "opCount" can be one, which the search for the other words tells.
	words := msgWordsIn(msg)
	if words&msgOpCount != 0 {
		if op := word(msg, 0); len(op) > 0 && lit(msg, len(op), ": opCount ") {
			name, hash := s.internCached(op)
			s.keepOp(msg, recentName{name, hash})
			return s.scanCollective(msg, recentName{name, hash}, l, h)
		}
	}
	if words&msgOpCount != 0 && words&msgNCCL == 0 {
		if rec, ok := taggedRecord(msg); ok {
			return s.scanTagged(rec, l, h)
		}
	}
	if words&(msgNCCL|msgOpCount) != 0 {
		return 0, false
	}
	if words&msgComm != 0 {
		return s.scanComm(msg, l, h)
	}
	l.Kind = KindInfo
	return uint64(h.addWord(msg)), true
}

// taggedRecord returns the record of a message `[2] AllReduce: opCount ...` (gCollective's
// Tag, with one space after it). No token holds a ']' but the Punct one.
func taggedRecord(msg []byte) ([]byte, bool) {
	if len(msg) == 0 || msg[0] != '[' {
		return nil, false
	}
	k := bytes.IndexByte(msg, ']')
	if k < 0 || !lit(msg, k+1, " ") || k+2 >= len(msg) || isSp(msg[k+2]) {
		return nil, false
	}
	return msg[k+2:], true
}

// scanTagged reads the record of a tagged message, whose op opens rec.
func (s *scanner) scanTagged(rec []byte, l *Line, h shape) (uint64, bool) {
	op := word(rec, 0)
	if len(op) == 0 || !lit(rec, len(op), opCountMark) {
		return 0, false
	}
	name, hash := s.internCached(op)
	return s.scanCollective(rec, recentName{name, hash}, l, h.add('['))
}

// decWordSigned reads `"-"? Word` as decNum does.
func decWordSigned(b []byte, i int) (int, int64) {
	if lit(b, i, "-") {
		e, v := decWord(b, i+1)
		return e, -v
	}
	return decWord(b, i)
}

func (h *hptWord) captureBytes(b []byte, s *scanner) error {
	// b is a whole HPT token: host bytes, ':', digits, ':', digits.
	i := 0
	for b[i] != ':' {
		i++
	}
	pid, j := int64(0), i+1
	for ; b[j] != ':'; j++ {
		pid = pid*10 + int64(b[j]-'0')
	}
	tid := int64(0)
	for _, c := range b[j+1:] {
		tid = tid*10 + int64(c-'0')
	}
	if j-i-1 > 18 || len(b)-j-1 > 18 {
		return errNumber
	}
	host, _ := s.internCached(b[:i])
	*h = hptWord{Host: host, Pid: pid, Tid: tid}
	return nil
}

// opSlot picks the slot of a collective line by its first eight bytes: the op name, or for a
// short name, the name and the start of ": opCount ".
func opSlot(msg []byte) int {
	return int(binary.LittleEndian.Uint64(msg) * 0x9E3779B97F4A7C15 >> 60)
}

// ": opCount " as a little-endian word and half-word.
var (
	opCount8 = binary.LittleEndian.Uint64([]byte(": opCoun"))
	opCount2 = binary.LittleEndian.Uint16([]byte("t "))
)

// knownOp returns the op name at the start of msg where it is one that opened a collective
// line lately and is followed by ": opCount ": word would return the same name (it holds
// no space or punctuation and ':' ends it).
func (s *scanner) knownOp(msg []byte) (recentName, bool) {
	if len(msg) < 8 {
		return recentName{}, false
	}
	op := s.ops[opSlot(msg)]
	n := len(op.name)
	if n > 0 && len(msg) >= n+len(": opCount ") && string(msg[:n]) == op.name &&
		binary.LittleEndian.Uint64(msg[n:]) == opCount8 && binary.LittleEndian.Uint16(msg[n+8:]) == opCount2 {
		return op, true
	}
	return recentName{}, false
}

// keepOp remembers op, the name that starts msg, a collective line.
func (s *scanner) keepOp(msg []byte, op recentName) { s.ops[opSlot(msg)] = op }

// mayBeVersion reports whether gBareLine's version head `('NCCL' | 'RCCL') Sp 'version'`
// opens rest.
func mayBeVersion(rest []byte) bool {
	if len(rest) < 4 || rest[0] != 'N' && rest[0] != 'R' {
		return false
	}
	if w := string(word(rest, 0)); w != "NCCL" && w != "RCCL" {
		return false
	}
	j := spEnd(rest, 4)
	return j > 4 && string(word(rest, j)) == "version"
}

package parser

// scanComm reads a message that may be a communicator line the way gComm and commFromTree
// do: `[Rank N] API comm PTR rank N nranks N (name value)* - What PHASE, rest`. It answers
// KindComm where the line is one, and KindInfo where gComm does not match (the message is
// then gMessage's Other) or commFromTree refuses it (a field value that does not read, no
// event and no layout fields). Forms where a typed capture inside an optional part fails are
// left to the grammar. The caller has checked that msg holds neither "NCCL" nor "opCount",
// so no second envelope and no collective can follow.
func (s *scanner) scanComm(msg []byte, l *Line, h shape) (uint64, bool) {
	c := commReader{b: msg}
	ev, ok := c.head(s)
	h = h.add(c.mask).addWord(msg[c.apiAt:])
	if !ok {
		l.Kind = KindInfo
		return uint64(h.add(byte(KindInfo))), true
	}
	for c.field(&ev) {
	}
	event, ok := c.event()
	if c.bad || !ok {
		return 0, false
	}
	h = h.add(c.mask).add(byte(c.fields)).add(byte(c.fields >> 8)).add(byte(event))
	switch {
	case c.invalid:
		l.Kind = KindInfo
		return uint64(h.add(byte(KindInfo)).add(1)), true
	case event > 0:
		ev.Event = commEvents[event]
	case ev.NNodes >= 0:
		ev.Event = EventLayout
	default:
		l.Kind = KindInfo
		return uint64(h.add(byte(KindInfo))), true
	}
	l.Kind, l.Comm = KindComm, ev
	return uint64(h.add(byte(KindComm))), true
}

// commEvents are the events gCommEvent reads, by the index commReader.event returns (0:
// none).
var commEvents = [...]string{"", "Init START", "Init COMPLETE", "Destroy START", "Destroy COMPLETE",
	"Abort START", "Abort COMPLETE", "Revoke START", "Revoke COMPLETE"}

// commReader walks a communicator line token by token. bad is set where the grammar would
// read the text some way the scanner does not vouch for.
type commReader struct {
	b      []byte
	i      int
	apiAt  int    // where the API name starts (or "comm" where there is none)
	mask   byte   // which optional parts were read, for the line's shape
	fields uint16 // which commFields were read, for the line's shape
	// bad is set where the grammar may read the text some way the scanner does not vouch
	// for; invalid where a field's value does not read, so commFromTree refuses the line.
	bad, invalid bool
}

// head reads `( '[' 'Rank' Sp Word ']' Sp )? ( Word Sp )? 'comm' Sp PTR Sp 'rank' Sp N Sp
// ('nranks' | 'nRanks') Sp N`.
func (c *commReader) head(s *scanner) (CommEvent, bool) {
	ev := CommEvent{CudaDev: -1, NvmlDev: -1, Split: -1, NNodes: -1, LocalRks: -1, LocalRk: -1}
	if lit(c.b, 0, "[") && !c.rankTag() {
		return ev, false
	}
	c.apiAt = c.i
	if w := word(c.b, c.i); len(w) > 0 && string(w) != "comm" {
		j := spEnd(c.b, c.i+len(w))
		if j == c.i+len(w) {
			return ev, false
		}
		ev.API, _ = s.internCached(w)
		c.i = j
		c.mask |= 1
	}
	var rank, nranks int64
	ok := c.keyword("comm") && c.sp() && c.ptr(&ev.Comm) &&
		c.sp() && c.keyword("rank") && c.sp() && c.signed(&rank) &&
		c.sp() && (c.keyword("nranks") || c.keyword("nRanks")) && c.sp() && c.signed(&nranks)
	ev.Rank, ev.NRanks = rank, nranks
	return ev, ok
}

// rankTag reads 2.29's `[Rank N] ` with a decimal N.
func (c *commReader) rankTag() bool {
	if string(word(c.b, 1)) != "Rank" {
		return false
	}
	c.i = 1 + len("Rank")
	var n int64
	if !c.sp() || !c.unsigned(&n) || !lit(c.b, c.i, "]") {
		return false
	}
	c.i++
	c.mask |= 2
	return c.sp()
}

// sp skips a run of white space; it fails where there is none.
func (c *commReader) sp() bool {
	j := spEnd(c.b, c.i)
	if j == c.i {
		return false
	}
	c.i = j
	return true
}

// keyword reads the Word w. Where w is followed by white space, as in every common form,
// the bytes decide it; otherwise word does.
func (c *commReader) keyword(w string) bool {
	if !lit(c.b, c.i, w) || !wordStop(c.b, c.i+len(w)) && string(word(c.b, c.i)) != w {
		return false
	}
	c.i += len(w)
	return true
}

// ptr reads a Word that ptrNum accepts (0x and hexadecimal digits): in one pass where the
// digits end the Word, else through word.
func (c *commReader) ptr(v *uint64) bool {
	b, i := c.b, c.i
	if lit(b, i, "0x") {
		var p uint64
		j := i + 2
		for ; j < len(b) && j-i-2 < 16 && hexVal[b[j]] != 0xff; j++ {
			p = p<<4 | uint64(hexVal[b[j]])
		}
		if j > i+2 && wordStop(b, j) {
			c.i, *v = j, p
			return true
		}
	}
	w := word(b, i)
	if len(w) < 3 || w[0] != '0' || w[1] != 'x' {
		return false
	}
	p, err := parseHex(w[2:])
	c.i += len(w)
	*v = p
	return err == nil
}

// signed reads `'-'? Word` as decNum does.
func (c *commReader) signed(v *int64) bool {
	neg := lit(c.b, c.i, "-")
	if neg {
		c.i++
	}
	if !c.unsigned(v) {
		return false
	}
	if neg {
		*v = -*v
	}
	return true
}

// unsigned reads a Word of decimal digits: in one pass where the digits end the Word,
// else through word.
func (c *commReader) unsigned(v *int64) bool {
	b, i := c.b, c.i
	var n int64
	j := i
	for ; j < len(b) && j-i < 18 && isDigit(b[j]); j++ {
		n = n*10 + int64(b[j]-'0')
	}
	if j > i && wordStop(b, j) {
		c.i, *v = j, n
		return true
	}
	w := word(b, i)
	n, err := parseDec(w)
	if len(w) == 0 || w[0] == '-' || err != nil {
		return false
	}
	c.i += len(w)
	*v = n
	return true
}

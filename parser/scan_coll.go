package parser

// scanCollective reads the collective enqueue line with single spaces between its fields, as
// gCollective does. Anything it is not sure of goes to the grammar.
func (s *scanner) scanCollective(msg []byte, l *Line, h shape) (uint64, bool) {
	c := &l.Coll
	opEnd := len(word(msg, 0))
	if opEnd == 0 || !lit(msg, opEnd, ": opCount ") {
		return 0, false
	}
	c.Op = s.intern(msg[:opEnd])
	r := fieldReader{b: msg, i: opEnd + len(": opCount ")}
	c.OpCount = r.hex()
	r.fail(r.i < len(r.b) && r.b[r.i] != ' ')
	c.SendBuff = r.ptrAfter(" sendbuff ")
	c.RecvBuff = r.ptrAfter(" recvbuff ")
	c.Count = r.decAfter(" count ")
	c.Datatype = r.decAfter(" datatype ")
	c.RedOp = r.decAfter(" op ")
	c.Root = r.decAfter(" root ")
	c.Comm = r.ptrAfter(" comm ")
	c.NRanks = r.decAfter(" [nranks=")
	c.Stream = r.ptrAfter("] stream ")
	c.Task, c.GlobalRank = -1, -1
	if r.bad {
		return 0, false
	}
	if !r.atEnd() {
		c.Task = r.decAfter(" task ")
		c.GlobalRank = r.decAfter(" globalrank ")
		if r.bad || !r.atEnd() {
			return 0, false
		}
	}
	l.Kind = KindCollective
	h = h.add(byte(KindCollective)).addWord(msg[:opEnd])
	return uint64(h.add(nilMask(c)).add(byte(c.Task + 1))), true
}

func nilMask(c *Collective) byte {
	var m byte
	if c.SendBuff == 0 {
		m |= 1
	}
	if c.RecvBuff == 0 {
		m |= 2
	}
	if c.Stream == 0 {
		m |= 4
	}
	return m
}

// fieldReader walks `keyword value` pairs; the first failure sets bad and the rest is
// skipped.
type fieldReader struct {
	b   []byte
	i   int
	bad bool
}

func (r *fieldReader) expect(s string) bool {
	if r.bad || !lit(r.b, r.i, s) {
		r.bad = true
		return false
	}
	r.i += len(s)
	return true
}

// hex reads hexadecimal digits. The field's token must end where the digits do: every field
// is followed by a fixed text that starts with a space or ']', which expect checks, so a
// token that runs on (into a Word or an HPT) fails there and the line goes to the grammar.
func (r *fieldReader) hex() uint64 {
	i, v := r.i, uint64(0)
	for ; i < len(r.b); i++ {
		d, ok := hexDigit(r.b[i])
		if !ok {
			break
		}
		v = v<<4 | uint64(d)
	}
	r.fail(i == r.i || i-r.i > 16)
	r.i = i
	return v
}

func (r *fieldReader) ptrAfter(key string) uint64 {
	if !r.expect(key) {
		return 0
	}
	if lit(r.b, r.i, "(nil)") {
		r.i += len("(nil)")
		return 0
	}
	if !r.expect("0x") {
		return 0
	}
	return r.hex()
}

func (r *fieldReader) decAfter(key string) int64 {
	if !r.expect(key) {
		return 0
	}
	neg := lit(r.b, r.i, "-")
	if neg {
		r.i++
	}
	i, v := r.i, int64(0)
	for ; i < len(r.b) && isDigit(r.b[i]); i++ {
		v = v*10 + int64(r.b[i]-'0')
	}
	r.fail(i == r.i || i-r.i > 18)
	r.i = i
	if neg {
		v = -v
	}
	return v
}

func (r *fieldReader) fail(bad bool) { r.bad = r.bad || bad }

// atEnd reports whether only white space is left.
func (r *fieldReader) atEnd() bool { return spEnd(r.b, r.i) == len(r.b) }

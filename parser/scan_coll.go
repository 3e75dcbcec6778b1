package parser

// scanCollective reads the collective enqueue line with single spaces between its fields, as
// gCollective does. Anything it is not sure of goes to the grammar.
func (s *scanner) scanCollective(msg []byte, opEnd int, l *Line, h shape) (uint64, bool) {
	c := &l.Coll
	op, opHash := s.internCached(msg[:opEnd])
	c.Op = op
	r := fieldReader{b: msg, i: opEnd + len(": opCount ")}
	c.OpCount = r.hex()
	r.fail(r.i < len(r.b) && r.b[r.i] != ' ')
	c.SendBuff = r.ptrAfter(" sendbuff ")
	c.RecvBuff = r.ptrAfter(" recvbuff ")
	c.Count = r.decAfter(" count ")
	c.Datatype = r.decAfter(" datatype ")
	c.RedOp = r.decAfter(" op ")
	c.Root = r.decAfter(" root ")
	c.Comm = r.ptrMemo(" comm ", s.memo(0))
	c.NRanks = r.decAfter(" [nranks=")
	c.Stream = r.ptrMemo("] stream ", s.memo(1))
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
	h = h.add(byte(KindCollective)) ^ opHash
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
	b, i := r.b, r.i
	if r.bad || len(b)-i < len(s) || string(b[i:i+len(s)]) != s {
		r.bad = true
		return false
	}
	r.i = i + len(s)
	return true
}

// hex reads hexadecimal digits. The field's token must end where the digits do: every field
// is followed by a fixed text that starts with a space or ']', which expect checks, so a
// token that runs on (into a Word or an HPT) fails there and the line goes to the grammar.
func (r *fieldReader) hex() uint64 {
	b, i0 := r.b, r.i
	i, v := i0, uint64(0)
	for ; i < len(b); i++ {
		d := hexVal[b[i]]
		if d == 0xff {
			break
		}
		v = v<<4 | uint64(d)
	}
	if i == i0 || i-i0 > 16 {
		r.bad = true
	}
	r.i = i
	return v
}

func (r *fieldReader) ptrAfter(key string) uint64 {
	if !r.expect(key) {
		return 0
	}
	if b, i := r.b, r.i; i+1 < len(b) && b[i] == '0' && b[i+1] == 'x' {
		r.i += 2
		return r.hex()
	}
	if !r.expect("(nil)") {
		return 0
	}
	return 0
}

// ptrMemo is ptrAfter for a pointer that a thread prints the same line after line: where
// the text equals the memo's and ends there, its value is taken from the memo (equal text,
// equal value, whichever thread the memo was filled by).
func (r *fieldReader) ptrMemo(key string, m *ptrMemo) uint64 {
	if m == nil {
		return r.ptrAfter(key)
	}
	if !r.expect(key) {
		return 0
	}
	b, i := r.b, r.i
	if m.n > 0 && i+2+m.n <= len(b) && b[i] == '0' && b[i+1] == 'x' && string(b[i+2:i+2+m.n]) == string(m.raw[:m.n]) &&
		(i+2+m.n == len(b) || hexVal[b[i+2+m.n]] == 0xff) {
		r.i = i + 2 + m.n
		return m.v
	}
	v := r.ptrAfter("")
	if !r.bad && b[i] == '0' && r.i-i-2 <= len(m.raw) {
		m.n = copy(m.raw[:], b[i+2:r.i])
		m.v = v
	}
	return v
}

func (r *fieldReader) decAfter(key string) int64 {
	if !r.expect(key) {
		return 0
	}
	b, i := r.b, r.i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	i0, v := i, int64(0)
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		v = v*10 + int64(c)
	}
	if i == i0 || i-i0 > 18 {
		r.bad = true
	}
	r.i = i
	if neg {
		v = -v
	}
	return v
}

func (r *fieldReader) fail(bad bool) { r.bad = r.bad || bad }

// atEnd reports whether only white space is left.
func (r *fieldReader) atEnd() bool { return spEnd(r.b, r.i) == len(r.b) }

// memo returns the current thread's memo of its comm (0) or stream (1) pointer, or nil.
func (s *scanner) memo(which int) *ptrMemo {
	if s.thread == nil {
		return nil
	}
	if which == 0 {
		return &s.thread.comm
	}
	return &s.thread.stream
}

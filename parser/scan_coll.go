package parser

import "encoding/binary"

// scanCollective reads the collective enqueue line with single spaces between its fields, as
// gCollective does. Anything it is not sure of goes to the grammar.
func (s *scanner) scanCollective(msg []byte, op recentName, l *Line, h shape) (uint64, bool) {
	c := &l.Coll
	c.Op = Op(op.name)
	opHash := op.hash
	r := fieldReader{b: msg, i: len(op.name) + len(": opCount ")}
	c.OpCount = r.hex()
	r.fail(r.i < len(r.b) && r.b[r.i] != ' ')
	if end, extra, ok := buffersAndCount(msg, r.i, c); !r.bad && ok {
		r.i, r.unknown = end, extra
	} else {
		c.SendBuff = r.ptrAfter(&kSendbuff, &c.Unread, PtrSend)
		c.RecvBuff = r.ptrAfter(&kRecvbuff, &c.Unread, PtrRecv)
		c.Count = r.decAfter(&kCount)
		c.Datatype = Datatype(r.decAfter(&kDatatype))
	}
	head := r.unknown
	if t := s.thread; t != nil && !r.bad {
		if tail := t.tails.find(msg[r.i:]); tail != nil {
			tail.fill(c)
			l.UnknownKey = tail.unknownKey
			if head != nil {
				l.UnknownKey, _ = s.internCached(head)
			}
			return s.collShape(l, h, opHash), true
		}
	}
	tailAt := r.i
	r.unknown = nil
	c.RedOp = RedOp(r.decAfter(&kOp))
	c.Root = r.decAfter(&kRoot)
	c.Comm = r.ptrAfter(&kComm, &c.Unread, PtrComm)
	c.NRanks = r.decAfter(&kNRanks)
	c.Stream = r.streamAfter(&c.Unread)
	c.Task, c.GlobalRank = -1, -1
	if r.bad {
		return 0, false
	}
	if !r.atEnd() {
		c.Task = r.decAfter(&kTask)
		c.GlobalRank = r.decAfter(&kGlobalRank)
		if r.bad || !r.atEnd() {
			return 0, false
		}
	}
	var tailKey string
	if r.unknown != nil {
		tailKey, _ = s.internCached(r.unknown)
	}
	if t := s.thread; t != nil {
		t.tails.keep(msg[tailAt:], c, tailKey)
	}
	l.UnknownKey = tailKey
	if head != nil {
		l.UnknownKey, _ = s.internCached(head)
	}
	return s.collShape(l, h, opHash), true
}

// collShape marks l a collective and returns its shape.
func (s *scanner) collShape(l *Line, h shape, opHash shape) uint64 {
	l.Kind = KindCollective
	h = h.add(byte(KindCollective)) ^ opHash
	h = h.add(nilMask(&l.Coll)).add(byte(l.Coll.Task + 1))
	// A line with a field nccllog does not know is a shape of its own, checked by the grammar.
	for i := 0; i < len(l.UnknownKey); i++ {
		h = h.add(l.UnknownKey[i])
	}
	return uint64(h)
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
	// unknown is the key of the first extra field read (gExtraField), or nil.
	unknown []byte
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

// key is the fixed text before a field, kept as two little-endian words and their masks so
// that a line is checked against it with two loads instead of a call to compare strings.
type key struct {
	w0, w1 uint64
	m0, m1 uint64
	n      int
	s      string
	// extras says whether fields nccllog does not know may stand before the key (gExtraField).
	extras bool
}

func newKey(s string) key {
	if len(s) > 16 {
		panic("parser: a key longer than two words: " + s) // a fault in this file, at start-up
	}
	var b, m [16]byte
	copy(b[:], s)
	for i := range s {
		m[i] = 0xff
	}
	le := binary.LittleEndian
	return key{w0: le.Uint64(b[:]), w1: le.Uint64(b[8:]), m0: le.Uint64(m[:]), m1: le.Uint64(m[8:]), n: len(s), s: s}
}

// newFieldKey is newKey for a field that unknown fields may precede.
func newFieldKey(s string) key {
	k := newKey(s)
	k.extras = true
	return k
}

// The keys of the collective line, in their order.
var (
	kSendbuff   = newFieldKey(" sendbuff ")
	kRecvbuff   = newFieldKey(" recvbuff ")
	kCount      = newFieldKey(" count ")
	kDatatype   = newFieldKey(" datatype ")
	kOp         = newFieldKey(" op ")
	kRoot       = newFieldKey(" root ")
	kComm       = newFieldKey(" comm ")
	kNRanks     = newFieldKey(" [nranks=")
	kStream     = newKey("] stream ")
	kNoStream   = newKey("]")
	kTask       = newFieldKey(" task ")
	kGlobalRank = newFieldKey(" globalrank ")
)

// at reports whether b[i:] starts with k's text, where sixteen bytes are left there.
func (k *key) at(b []byte, i int) bool {
	if i < 0 || i+16 > len(b) {
		return false
	}
	w := b[i : i+16 : i+16]
	return binary.LittleEndian.Uint64(w)&k.m0 == k.w0 && binary.LittleEndian.Uint64(w[8:])&k.m1 == k.w1
}

// The fixed text before each buffer pointer in its common form.
var (
	kSendbuff0x = newKey(" sendbuff 0x")
	kRecvbuff0x = newKey(" recvbuff 0x")
)

// buffersAndCount reads ` sendbuff 0x… recvbuff 0x… count N datatype N` at b[i:] in one go
// where it has its common form: twelve-digit pointers (hex12) and unsigned numbers, and
// between recvbuff and count at most the extra fields RCCL 2.27 puts there (` acc (nil)`),
// whose first key it returns. It reads what ptrAfter and decAfter would, and returns where
// they would stop; ok is false for any other text, which they then read.
func buffersAndCount(b []byte, i int, c *Collective) (end int, extra []byte, ok bool) {
	if !kSendbuff0x.at(b, i) {
		return 0, nil, false
	}
	send, ok := hex12(b, i+kSendbuff0x.n)
	i += kSendbuff0x.n + 12
	if !ok || !kRecvbuff0x.at(b, i) {
		return 0, nil, false
	}
	recv, ok := hex12(b, i+kRecvbuff0x.n)
	i += kRecvbuff0x.n + 12
	if !ok {
		return 0, nil, false
	}
	if !kCount.at(b, i) {
		r := fieldReader{b: b, i: i}
		r.skipExtras()
		if i, extra = r.i, r.unknown; !kCount.at(b, i) {
			return 0, nil, false
		}
	}
	i, count, ok := digitsAt(b, i+kCount.n)
	if !ok || !kDatatype.at(b, i) {
		return 0, nil, false
	}
	i, dtype, ok := digitsAt(b, i+kDatatype.n)
	if !ok {
		return 0, nil, false
	}
	c.SendBuff, c.RecvBuff, c.Count, c.Datatype = send, recv, count, Datatype(dtype)
	return i, extra, true
}

// digitsAt reads the decimal digits at b[i:]: where they end, their value, and whether there
// are 1 to 18 of them (what an int64 field holds).
func digitsAt(b []byte, i int) (int, int64, bool) {
	i0, v := i, int64(0)
	for ; i < len(b); i++ {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		v = v*10 + int64(d)
	}
	return i, v, i > i0 && i-i0 <= 18
}

// expectKey is expect(k.s), by two masked loads where sixteen bytes are left on the line.
// Where the key is not there, fields nccllog does not know are read past first, where k
// allows them.
func (r *fieldReader) expectKey(k *key) bool {
	if !r.bad && k.at(r.b, r.i) {
		r.i += k.n
		return true
	}
	if k.extras && !r.bad {
		r.skipExtras()
	}
	return r.expect(k.s)
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

// ptrAfter reads the pointer field after k as ptrField does: the text up to white space, a
// pointer, (nil), or anything else, which is an unread pointer (f is set in unread).
func (r *fieldReader) ptrAfter(k *key, unread *PtrFields, f PtrFields) uint64 {
	if !r.expectKey(k) {
		return 0
	}
	return r.ptr(unread, f)
}

// ptr reads a pointer field's text at r.i (ptrValue), the common forms first.
func (r *fieldReader) ptr(unread *PtrFields, f PtrFields) uint64 {
	b, i := r.b, r.i
	if i+1 < len(b) && b[i] == '0' && b[i+1] == 'x' {
		// hex12 needs a byte after the digits, so b[i+14] is there where it reads them.
		if v, ok := hex12(b, i+2); ok && isSp(b[i+14]) {
			r.i = i + 14
			return v
		}
		e, v := i+2, uint64(0)
		for ; e < len(b) && hexVal[b[e]] != 0xff; e++ {
			v = v<<4 | uint64(hexVal[b[e]])
		}
		if n := e - i - 2; n >= 1 && n <= 16 && (e == len(b) || isSp(b[e])) {
			r.i = e
			return v
		}
	}
	e := i
	for e < len(b) && !isSp(b[e]) {
		e++
	}
	r.fail(e == i)
	r.i = e
	if string(b[i:e]) != "(nil)" {
		*unread |= f
	}
	return 0
}

// streamAfter reads `] stream %p` after the rank count, or `]` alone where the line ends
// there without its stream (gCollective's optional stream), which leaves the stream unread.
func (r *fieldReader) streamAfter(unread *PtrFields) uint64 {
	switch {
	case r.bad:
		return 0
	case kStream.at(r.b, r.i) || lit(r.b, r.i, kStream.s):
		r.i += kStream.n
		return r.ptr(unread, PtrStream)
	}
	// Without its stream the line ends here; anything else is the grammar's to read.
	r.fail(!r.expect(kNoStream.s) || !r.atEnd())
	*unread |= PtrStream
	return 0
}

func (r *fieldReader) decAfter(k *key) int64 {
	if !r.expectKey(k) {
		return 0
	}
	i := r.i
	neg := i < len(r.b) && r.b[i] == '-'
	if neg {
		i++
	}
	i, v, ok := digitsAt(r.b, i)
	r.fail(!ok)
	r.i = i
	if neg {
		v = -v
	}
	return v
}

func (r *fieldReader) fail(bad bool) { r.bad = r.bad || bad }

// atEnd reports whether only white space is left.
func (r *fieldReader) atEnd() bool { return spEnd(r.b, r.i) == len(r.b) }

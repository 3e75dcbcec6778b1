package parser

// A thread logs the calls of one communicator with the same reduction op, root, rank count
// and stream line after line, so a collective line's text from ` op ` to its end repeats. A
// thread's slot keeps the last few such tails and what they read as; a line whose tail is
// the same bytes reads the same, and only its opCount, buffers, count and datatype are read.

// tailMax is the longest tail kept: NCCL's is about 70 bytes, RCCL's about 90.
const tailMax = 112

const _ = uint8(tailMax) // tailMemo keeps lengths in bytes

// collTail is one tail and its fields.
type collTail struct {
	raw              [tailMax]byte
	redOp            RedOp
	root, nranks     int64
	comm, stream     uint64
	task, globalRank int64
	unread           PtrFields // the tail's unread pointers (comm, stream)
	unknownKey       string    // the first unknown field's key in the tail, or ""
}

// tailMemo holds a thread's last tails, one for each communicator it is busy with. The
// tails' lengths come first, so that a slot taken by another thread forgets its tails in one
// store: a 4,096-rank init passes its threads through the slots one line or two at a time,
// and clearing the tails themselves (800 bytes) cost more than reading the line.
type tailMemo struct {
	n    [4]uint8 // the length of each kept tail; 0: none
	next uint8
	t    [4]collTail
}

// find returns the kept tail that equals b, or nil.
func (m *tailMemo) find(b []byte) *collTail {
	for k := range m.t {
		if n := int(m.n[k]); n == len(b) && n > 0 && string(m.t[k].raw[:n]) == string(b) {
			return &m.t[k]
		}
	}
	return nil
}

// forget drops every kept tail.
func (m *tailMemo) forget() { m.n, m.next = [4]uint8{}, 0 }

// keep remembers b, read in full as c's fields with the unknown field key unknown, in place
// of the oldest tail.
func (m *tailMemo) keep(b []byte, c *Collective, unknown string) {
	if len(b) > tailMax {
		return
	}
	t := &m.t[m.next]
	m.n[m.next] = uint8(copy(t.raw[:], b))
	m.next = (m.next + 1) % uint8(len(m.t))
	t.redOp, t.root, t.nranks = c.RedOp, c.Root, c.NRanks
	t.comm, t.stream = c.Comm, c.Stream
	t.task, t.globalRank = c.Task, c.GlobalRank
	t.unread = c.Unread & (PtrComm | PtrStream)
	t.unknownKey = unknown
}

// fill sets c's fields from the tail.
func (t *collTail) fill(c *Collective) {
	c.RedOp, c.Root, c.NRanks = t.redOp, t.root, t.nranks
	c.Comm, c.Stream = t.comm, t.stream
	c.Task, c.GlobalRank = t.task, t.globalRank
	c.Unread |= t.unread
}

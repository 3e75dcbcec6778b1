package ranks

import (
	"strconv"

	"github.com/nccllog/nccllog/parser"
)

// Sig is what the ranks of a communicator must agree on for the same call: op, count,
// datatype, reduction op and root (the peer for Send/Recv, which does differ by rank).
type Sig struct {
	Op       parser.Op
	Count    int64
	Datatype parser.Datatype
	RedOp    parser.RedOp
	Root     int64
}

// sigTable interns signatures as small ids, so that a communicator's reference sequence costs
// four bytes a call. Id 0 means "not compared" (a call outside --steps). A signature is kept
// once, in sigs; index finds it by hash (open addressing, ids, 0 for a free slot, at most half
// full): 8 bytes a signature beside its 48, where a map from Sig to id was 60-90 more.
type sigTable struct {
	sigs  []Sig
	index []uint32
	opOf  []uint32    // by id: its op's index in ops
	ops   []parser.Op // the ops of sigs, each once
	// calls keeps what one call of a recent signature adds to a rank's volume (see call): a
	// map lookup of the op and the sums of Volume.add for each call cost as much as the rest
	// of folding it. It is a cache of a fixed size, by id, rather than an entry a signature:
	// a log of a million call shapes would hold a million of them.
	calls *[sigCallSlots]sigCall
}

// sigCallSlots is how many signatures' volumes a table keeps at a time (a job's loop calls
// a few dozen shapes over and over).
const sigCallSlots = 256

// sigCall is what a table knows of a signature's calls.
type sigCall struct {
	id uint32 // the signature's (0: no signature's)
	op uint32 // its op's index in the table's ops
	// bytes, bus and sized are callVolume's for calls on nranks ranks.
	sized  bool
	nranks int64
	bytes  int64
	bus    float64
}

func newSigTable() *sigTable { return &sigTable{sigs: []Sig{{}}, opOf: []uint32{0}} }

func (t *sigTable) id(s Sig) uint32 { return t.idOf(&s) }

// idOf is id, for a signature passed by pointer (a fold's call: not copied to hash and
// compare it).
func (t *sigTable) idOf(s *Sig) uint32 {
	if 2*len(t.sigs) > len(t.index) {
		t.grow()
	}
	mask := uint64(len(t.index) - 1)
	for i := t.hash(s) & mask; ; i = (i + 1) & mask {
		switch id := t.index[i]; {
		case id == 0:
			id = uint32(len(t.sigs))
			t.sigs = append(t.sigs, *s)
			t.opOf = append(t.opOf, t.opIndex(s.Op))
			t.index[i] = id
			return id
		case t.sigs[id] == *s:
			return id
		}
	}
}

// opIndex is op's index in t.ops, added where it is not there (a log names a few ops).
func (t *sigTable) opIndex(op parser.Op) uint32 {
	for i, o := range t.ops {
		if o == op {
			return uint32(i)
		}
	}
	t.ops = append(t.ops, op)
	return uint32(len(t.ops) - 1)
}

// call is what the table knows of id's calls, with its volume for calls on nranks ranks; s
// is id's signature, or a call's of it (whose root may differ: the volume does not read it).
func (t *sigTable) call(id uint32, s *Sig, nranks int64) *sigCall {
	if t.calls == nil {
		t.calls = new([sigCallSlots]sigCall)
	}
	c := &t.calls[id%sigCallSlots]
	if c.id != id || c.nranks != nranks {
		c.id, c.op, c.nranks = id, t.opOf[id], nranks
		c.bytes, c.bus, c.sized = callVolume(*s, nranks)
	}
	return c
}

// grow doubles the index (16 slots at first) and places every signature in it again.
func (t *sigTable) grow() {
	t.index = make([]uint32, max(16, 2*len(t.index)))
	mask := uint64(len(t.index) - 1)
	for id := 1; id < len(t.sigs); id++ {
		i := t.hash(&t.sigs[id]) & mask
		for t.index[i] != 0 {
			i = (i + 1) & mask
		}
		t.index[i] = uint32(id)
	}
}

// hash mixes s's fields, cheaper than hashing the struct as a whole; of the op's name only
// its length and three of its bytes (the ops a log names differ there).
func (t *sigTable) hash(s *Sig) uint64 {
	h := uint64(len(s.Op))
	if n := len(s.Op); n > 0 {
		h ^= uint64(s.Op[0])<<8 ^ uint64(s.Op[n/2])<<16 ^ uint64(s.Op[n-1])<<24
	}
	h ^= uint64(s.Count) * 0x9e3779b97f4a7c15
	h ^= (uint64(s.Datatype) ^ uint64(s.RedOp)<<8 ^ uint64(s.Root)<<16) * 0xc2b2ae3d27d4eb4f
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	return h ^ h>>33
}

func (t *sigTable) sig(id uint32) Sig { return t.sigs[id] }

// p2p reports whether root is a peer that differs by rank rather than an agreed root.
func (s Sig) p2p() bool { return s.Op.PeerToPeer() }

// compared is the part of a Sig that must agree: for point-to-point ops the peer differs
// from rank to rank by design and is left out.
func (s Sig) compared() Sig {
	if s.p2p() {
		s.Root = -1
	}
	return s
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

package ranks

import (
	"hash/maphash"
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
	seed  maphash.Seed
}

func newSigTable() *sigTable { return &sigTable{sigs: []Sig{{}}, seed: maphash.MakeSeed()} }

func (t *sigTable) id(s Sig) uint32 {
	if 2*len(t.sigs) > len(t.index) {
		t.grow()
	}
	mask := uint64(len(t.index) - 1)
	for i := t.hash(s) & mask; ; i = (i + 1) & mask {
		switch id := t.index[i]; {
		case id == 0:
			id = uint32(len(t.sigs))
			t.sigs = append(t.sigs, s)
			t.index[i] = id
			return id
		case t.sigs[id] == s:
			return id
		}
	}
}

// grow doubles the index (16 slots at first) and places every signature in it again.
func (t *sigTable) grow() {
	t.index = make([]uint32, max(16, 2*len(t.index)))
	mask := uint64(len(t.index) - 1)
	for id := 1; id < len(t.sigs); id++ {
		i := t.hash(t.sigs[id]) & mask
		for t.index[i] != 0 {
			i = (i + 1) & mask
		}
		t.index[i] = uint32(id)
	}
}

// hash mixes s's fields (the op's name through maphash, whose seed is the table's), cheaper
// than hashing the struct as a whole.
func (t *sigTable) hash(s Sig) uint64 {
	h := maphash.String(t.seed, string(s.Op))
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

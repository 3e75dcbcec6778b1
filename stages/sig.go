package stages

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
// four bytes a call. Id 0 means "not compared" (a call outside --steps).
type sigTable struct {
	ids  map[Sig]uint32
	sigs []Sig
}

func newSigTable() *sigTable { return &sigTable{ids: make(map[Sig]uint32), sigs: []Sig{{}}} }

func (t *sigTable) id(s Sig) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := uint32(len(t.sigs))
	t.sigs = append(t.sigs, s)
	t.ids[s] = id
	return id
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

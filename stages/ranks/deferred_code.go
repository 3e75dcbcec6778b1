package ranks

import (
	"encoding/binary"
	"math/bits"

	"github.com/nccllog/nccllog/parser"
)

// The events Ranks holds unfolded (deferred.go) are kept packed: each as the fields that
// differ from the last event of its shape (its kind, and a communicator line's event: an
// Init line, a layout line, ...) and those fields' differences, as varints. An event and
// its communicator line's side entry are 184 bytes as a list holds them; a log of
// communicator set-up (hundreds of thousands of such lines, no call) held about 27 MB of
// them, whose fresh pages and the collector's growth of the heap around them cost diagnose,
// which never folds them, up to a tenth of its time there. Packed, a communicator line is
// about a sixth of that (32 bytes): the lines of one shape mostly share their file,
// communicator size, commId and split, and their ranks, devices and pids are small numbers.

// The fields of a packed event, in the order its header's mask names them. The first nHot
// are those that differ from line to line of one shape in a log of communicator set-up
// (its ranks' lines interleave) or of timed lines; the rest mostly stay as they were, and
// are compared all at once.
const (
	fLine = iota
	fPid
	fHost
	fComm
	fGlobal
	fCount
	fDev
	fCudaDev // commFields[0], as the others: a communicator line's devices, nodes, splits
	fNvmlDev
	fLocalRk
	fAt
	nHot
)

const (
	fEvent = nHot + iota
	fNNodes
	fLocalRks
	fPacked // kind, the wall time's form, digits and zone, whether a side entry follows, advice
	fOpCount
	fNRanks
	fLabel
	fFile
	fStep
	fRoot
	fOp
	fDt
	fRed
	fAPI
	fText
	fDog
	fWide
	fColor
	fKey
	fSplit
	nFields // at most 32: the mask's bits (and the arrays' length, fieldSlots)
)

// fieldSlots is the length of the arrays of fields: a mask bit's index & 31 is one without
// a check of its bounds.
const fieldSlots = 32

// packShapes is how many shapes of events a packer keeps the last of.
const packShapes = 8

// headBytes is the size of a packed event's header: the mask of its fields that differ from
// its shape's last event, and its shape's slot.
const headBytes = 5

// maxPacked is the most bytes one packed event takes: its header and up to nine bytes a
// field, and the eight a field's last read or write may reach past its bytes.
const maxPacked = headBytes + 9*nFields + 8

// packBlock is the size of a buffer of packed events: large enough to be pages of their own,
// which are touched only as events fill them.
const packBlock = 256 << 10

// packed bits of the fPacked field past the kind's byte.
const (
	packRare   = 1 << 8
	packAdvice = 1 << 9
	packZoned  = 1 << 10
	packForm   = 16 // shift of the wall time's form
	packDigits = 24 // shift of its digits
)

// fields puts e's fields (and r's, where r is not nil; zero where it is) in v, e's strings'
// indexes as x translates them, r's dog and wide entries offset by dogs and wide (see
// deferred.hold; read in place, where a copy of r to offset them cost as much as the rest).
func fields(v *[fieldSlots]uint64, e *event, r *rareEvent, x []uint32, dogs, wide int32) {
	v[fLine], v[fPid], v[fHost], v[fComm] = uint64(e.line), uint64(e.pid), uint64(x[e.host]), e.comm
	v[fGlobal], v[fCount], v[fDev], v[fOpCount] = uint64(e.global), uint64(e.count), uint64(e.dev), e.opCount
	v[fNRanks], v[fLabel], v[fFile], v[fStep] = uint64(e.nranks), uint64(e.label), uint64(x[e.file]), uint64(e.step)
	v[fAt], v[fRoot], v[fOp] = uint64(e.atNanos), uint64(e.root), uint64(x[e.op])
	v[fDt], v[fRed] = uint64(uint32(e.dt)), uint64(uint32(e.red))
	p := uint64(e.kind) | uint64(e.atForm)<<packForm | uint64(e.atDigits)<<packDigits
	if e.atZoned {
		p |= packZoned
	}
	if r == nil {
		v[fPacked] = p
		v[fEvent], v[fAPI], v[fText], v[fDog], v[fWide] = 0, 0, 0, 0, 0
		v[fCudaDev], v[fNvmlDev], v[fColor], v[fKey], v[fSplit], v[fNNodes], v[fLocalRks], v[fLocalRk] = 0, 0, 0, 0, 0, 0, 0, 0
		return
	}
	p |= packRare
	if r.advice {
		p |= packAdvice
	}
	v[fPacked] = p
	v[fEvent], v[fAPI], v[fText] = uint64(x[r.event]), uint64(x[r.api]), uint64(x[r.text])
	dog, wd := r.dog, r.wide
	if dog >= 0 {
		dog += dogs
	}
	if wd >= 0 {
		wd += wide
	}
	v[fDog], v[fWide] = uint64(int64(dog)), uint64(int64(wd))
	c := &r.comm // commFields' order; a loop through a table of their fields cost half of the rest
	v[fCudaDev], v[fNvmlDev], v[fColor], v[fKey] = uint64(int64(c[0])), uint64(int64(c[1])), uint64(int64(c[2])), uint64(int64(c[3]))
	v[fSplit], v[fNNodes], v[fLocalRks], v[fLocalRk] = uint64(int64(c[4])), uint64(int64(c[5])), uint64(int64(c[6])), uint64(int64(c[7]))
}

// packer writes events packed, each against the last of its shape.
type packer struct {
	prev  [packShapes][fieldSlots]uint64
	shape [packShapes]uint64 // the shape each slot holds (see shapeOf); 0: none yet
	next  uint8              // the slot a new shape takes
}

// shapeOf is e's shape: its kind, whether it has a side entry, and its communicator line's
// event (v's, its string's index).
func shapeOf(v *[fieldSlots]uint64) uint64 {
	return v[fPacked]&(0xff|packRare) | v[fEvent]<<16
}

// slot is the slot of shape k, taken from the shape held longest where none holds it.
func (p *packer) slot(k uint64) int {
	for i, s := range p.shape {
		if s == k {
			return i
		}
	}
	i := int(p.next)
	p.shape[i], p.next = k, (p.next+1)%packShapes
	return i
}

// put packs l's events from i to n into buf from at, which has room for them, and returns
// where they end. x translates l's string indexes, dogs and wide offset its side entries'
// (see deferred.hold).
func (p *packer) put(buf []byte, at int, l *events, i, n int, x []uint32, dogs, wide int32) int {
	var v [fieldSlots]uint64
	for ; i < n; i++ {
		e := &l.Items[i]
		if e.rare >= 0 {
			fields(&v, e, &l.rare[e.rare], x, dogs, wide)
		} else {
			fields(&v, e, nil, x, 0, 0)
		}
		s := p.slot(shapeOf(&v))
		at = putFields(buf, at, s, &v, &p.prev[s])
	}
	return at
}

// putFields writes the fields of v that differ from prev at buf[at:], which has room for
// maxPacked bytes, after a header of their mask and slot s; makes prev v; and returns where
// they end.
func putFields(buf []byte, at, s int, v, prev *[fieldSlots]uint64) int {
	end := at + headBytes
	mask := putRange(buf, &end, v, prev, 0, nHot)
	if *(*[nFields - nHot]uint64)(v[nHot:nFields]) != *(*[nFields - nHot]uint64)(prev[nHot:nFields]) {
		mask |= putRange(buf, &end, v, prev, nHot, nFields)
	}
	binary.LittleEndian.PutUint32(buf[at:], mask)
	buf[at+4] = byte(s)
	return end
}

// putRange is putFields of fields [from, to): it returns their bits of the mask. A field is
// its difference from the one before, zigzagged (small differences either way are short),
// in a prefix varint: its first byte's trailing zeros and the one past them tell its
// length, 1 to 8 bytes of 7 bits each, or a zero byte and 8 bytes; one unaligned write
// stores it, where a varint of 7 bits a byte took one branch a byte.
func putRange(buf []byte, end *int, v, prev *[fieldSlots]uint64, from, to int) uint32 {
	var mask uint32
	at := *end
	vs, ps := v[from:to], prev[from:to] // slices: read without a nil check a field
	ps = ps[:len(vs)]
	for i, x := range vs {
		d := x - ps[i]
		if d == 0 {
			continue
		}
		ps[i] = x
		mask |= 1 << ((from + i) & 31)
		z := d<<1 ^ uint64(int64(d)>>63)
		if z < 1<<7 {
			// One byte, the most common length (a line's step, a device, a rank's
			// neighbour): no length to count.
			buf[at] = byte(z<<1 | 1)
			at++
			continue
		}
		if z >= 1<<56 {
			buf[at] = 0
			binary.LittleEndian.PutUint64(buf[at+1:], z)
			at += 9
			continue
		}
		k := uint(prefixLen[bits.Len64(z)]) // 1 to 8: & 63 spares the shifts their checks
		binary.LittleEndian.PutUint64(buf[at:], z<<(k&63)|1<<((k-1)&63))
		at += int(k)
	}
	*end = at
	return mask
}

// prefixLen is how many bytes a prefix varint of so many bits takes (7 a byte, at least one).
var prefixLen = [57]uint8{0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1,
	8: 2, 9: 2, 10: 2, 11: 2, 12: 2, 13: 2, 14: 2,
	15: 3, 16: 3, 17: 3, 18: 3, 19: 3, 20: 3, 21: 3,
	22: 4, 23: 4, 24: 4, 25: 4, 26: 4, 27: 4, 28: 4,
	29: 5, 30: 5, 31: 5, 32: 5, 33: 5, 34: 5, 35: 5,
	36: 6, 37: 6, 38: 6, 39: 6, 40: 6, 41: 6, 42: 6,
	43: 7, 44: 7, 45: 7, 46: 7, 47: 7, 48: 7, 49: 7,
	50: 8, 51: 8, 52: 8, 53: 8, 54: 8, 55: 8, 56: 8}

// unpacker reads events packed by a packer, each against the last of its slot.
type unpacker struct {
	prev [packShapes][fieldSlots]uint64
}

// next reads the event at buf[at:] into e (and its side entry into r, reporting whether it
// has one) and returns where it ends. buf has eight bytes past its last event's.
func (u *unpacker) next(buf []byte, at int, e *event, r *rareEvent) (int, bool) {
	h := binary.LittleEndian.Uint64(buf[at:])
	mask, v := uint32(h), &u.prev[h>>32&0xff%packShapes]
	at += headBytes
	for mask != 0 {
		i := bits.TrailingZeros32(mask)
		mask &= mask - 1
		var z uint64
		if b := buf[at]; b == 0 {
			z = binary.LittleEndian.Uint64(buf[at+1:])
			at += 9
		} else {
			k := uint(bits.TrailingZeros8(b)) + 1 // 1 to 8: & 63 spares the shifts their checks
			z = binary.LittleEndian.Uint64(buf[at:]) << ((64 - 8*k) & 63) >> ((64 - 7*k) & 63)
			at += int(k)
		}
		v[i&31] += z>>1 ^ -(z & 1)
	}
	p := v[fPacked]
	*e = event{line: int64(v[fLine]), step: int64(v[fStep]), pid: int64(v[fPid]), dev: int64(v[fDev]),
		label: int64(v[fLabel]), opCount: v[fOpCount], count: int64(v[fCount]), root: int64(v[fRoot]),
		nranks: int64(v[fNRanks]), global: int64(v[fGlobal]), comm: v[fComm], atNanos: int64(v[fAt]),
		file: uint32(v[fFile]), host: uint32(v[fHost]), op: uint32(v[fOp]), rare: -1,
		dt: int32(uint32(v[fDt])), red: int32(uint32(v[fRed])), kind: parser.Kind(p),
		atForm: parser.StampForm(p >> packForm), atDigits: uint8(p >> packDigits), atZoned: p&packZoned != 0}
	if p&packRare == 0 {
		return at, false
	}
	*r = rareEvent{event: uint32(v[fEvent]), api: uint32(v[fAPI]), text: uint32(v[fText]),
		dog: int32(int64(v[fDog])), wide: int32(int64(v[fWide])), advice: p&packAdvice != 0}
	r.comm = commFields{int32(int64(v[fCudaDev])), int32(int64(v[fNvmlDev])), int32(int64(v[fColor])),
		int32(int64(v[fKey])), int32(int64(v[fSplit])), int32(int64(v[fNNodes])), int32(int64(v[fLocalRks])),
		int32(int64(v[fLocalRk]))}
	return at, true
}

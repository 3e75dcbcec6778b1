package ranks

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// busFactor is nccl-tests' bus bandwidth factor for op on n ranks, and whether the message
// size S is count × size × n (the whole buffer) rather than count × size. See
// nccl-tests' doc/PERFORMANCE.md: busbw = algbw × factor.
func busFactor(op parser.Op, n int64) (factor float64, wholeBuffer bool) {
	if n <= 0 {
		n = 1
	}
	nf := float64(n)
	switch op {
	case parser.OpAllReduce:
		return 2 * (nf - 1) / nf, false
	case parser.OpAllGather, parser.OpReduceScatter, parser.OpAlltoAll, parser.OpGather, parser.OpScatter:
		return (nf - 1) / nf, true
	}
	return 1, false
}

// Volume is the data a set of calls moved: Bytes is the API message size (count × element
// size) and BusBytes what the calls must move over the busiest link, by nccl-tests' bus
// factors. It is volume, not bandwidth: INFO lines carry no completion times.
type Volume struct {
	Calls    int64
	Bytes    int64 // at most MaxBytes
	BusBytes float64
}

func (v *Volume) add(s Sig, nranks int64) { v.addCall(callVolume(s, nranks)) }

// callVolume is what one call of s on nranks ranks adds to a Volume: its bytes and bus
// bytes, and whether it has a size at all (a call of no count or of an unknown datatype
// counts as a call only).
func callVolume(s Sig, nranks int64) (bytes int64, bus float64, sized bool) {
	size := s.Datatype.Size()
	if s.Count <= 0 || size == 0 {
		return 0, 0, false
	}
	b := stages.MulBytes(s.Count, size)
	f, whole := busFactor(s.Op, nranks)
	msg := float64(b)
	if whole {
		msg *= float64(max(nranks, 1))
	}
	return b, float64(msg * f), true // rounded here: the sum is the same whether or not it is cached
}

// addCall adds one call of callVolume's bytes, bus bytes and size.
func (v *Volume) addCall(bytes int64, bus float64, sized bool) {
	v.Calls++
	if sized {
		v.Bytes = stages.AddBytes(v.Bytes, bytes)
		v.BusBytes += bus
	}
}

func (v *Volume) merge(o Volume) {
	v.Calls += o.Calls
	v.Bytes = stages.AddBytes(v.Bytes, o.Bytes)
	v.BusBytes += o.BusBytes
}

package gen

import (
	"math/rand/v2"
	"strconv"
)

// opKind is a collective or point-to-point operation.
type opKind uint8

const (
	opAllReduce opKind = iota
	opAllGather
	opReduceScatter
	opBroadcast
	opReduce
	opSend
	opRecv
	opAlltoAll
)

func (k opKind) String() string {
	switch k {
	case opAllReduce:
		return "AllReduce"
	case opAllGather:
		return "AllGather"
	case opReduceScatter:
		return "ReduceScatter"
	case opBroadcast:
		return "Broadcast"
	case opReduce:
		return "Reduce"
	case opSend:
		return "Send"
	case opRecv:
		return "Recv"
	}
	return "AlltoAll"
}

// Datatypes used most, and the first value NCCL does not know.
const (
	dtInt8    = 0
	dtFloat32 = 7
	dtFloat64 = 8
	dtBf16    = 9
	dtUnknown = 12
)

// elemSize is the byte size of an ncclDataType_t; 0 for unknown values.
func elemSize(dtype int) int64 {
	switch dtype {
	case 0, 1, 10, 11:
		return 1
	case 6, 9:
		return 2
	case 2, 3, 7:
		return 4
	case 4, 5, 8:
		return 8
	}
	return 0
}

// planOp is one operation that every rank of the job issues in a step.
type planOp struct {
	kind    opKind
	comm    int // commWorld or commSub
	dtype   int
	count   int64
	redop   int
	root    int // root comm rank of Broadcast/Reduce
	inPlace bool
	mid     []byte // " count N datatype D op O root "
}

// layer is one model layer's sharded parameters.
type layer struct{ gatherCount, scatterCount int64 }

// model fixes the per-run shape of the training step.
type model struct {
	layers                   []layer
	gradCount, p2pCount      int64
	a2aCount, bcastCount     int64
	scatterOp                int     // ReduceScatter redop: sum or avg
	stepMs                   float64 // typical step time
	tflops, memGiB, tokPerMs float64
}

func newModel(rng *rand.Rand) model {
	m := model{layers: make([]layer, 5+rng.IntN(4))}
	// Gathers (bf16) and scatters (fp32) of the layers fill 10..16 slots; the
	// first nine, in random order, sit on, just below and just above the three
	// histogram edges, so every step has all nine.
	edgeSlots := rng.Perm(2 * len(m.layers))
	for i := range m.layers {
		m.layers[i] = layer{slotCount(rng, edgeSlots[2*i], 2), slotCount(rng, edgeSlots[2*i+1], 4)}
	}
	m.gradCount = pickCount(rng, 4)
	m.p2pCount = pickCount(rng, 2)
	m.a2aCount = pickCount(rng, 2)
	m.bcastCount = 4096 + int64(rng.IntN(4096))
	m.scatterOp = []int{0, 4}[rng.IntN(2)]
	m.stepMs = 1800 + float64(rng.IntN(800))
	m.tflops = 150 + float64(rng.IntN(250))
	m.memGiB = 55 + rng.Float64()*20
	m.tokPerMs = 4 + rng.Float64()*8
	return m
}

// histogramEdges are the byte sizes where nccllog's size buckets start.
func histogramEdges() [3]int64 { return [3]int64{65536, 1048576, 16777216} }

// slotCount is the count of edge slot k (0..8: edge k%3, k/3-1 elements off)
// or, for other slots, a random pickCount.
func slotCount(rng *rand.Rand, k int, size int64) int64 {
	if k >= 9 {
		return pickCount(rng, size)
	}
	return histogramEdges()[k%3]/size + int64(k/3) - 1
}

// pickCount returns an element count whose byte size lies on a histogram edge
// (64 KiB, 1 MiB, 16 MiB), one element below or above it, or at a typical size.
func pickCount(rng *rand.Rand, size int64) int64 {
	typical := [8]int64{512, 4096, 262144, 2097152, 4194304, 8388608, 26214400, 33554432}
	if rng.IntN(2) == 0 {
		return slotCount(rng, rng.IntN(9), size)
	}
	return max(1, typical[rng.IntN(len(typical))]/size)
}

// buildPlan makes the operation sequence of one step (FSDP-like: gathers and
// scatters on the world comm, gradient sync and pipeline send/recv on the split
// comm, plus occasional odd calls). It reuses g.st.plan.
func (g *gen) buildPlan(step int) []planOp {
	m, rng := &g.model, g.rng
	plan := g.st.plan[:0]
	add := func(op planOp) { plan = append(plan, op) }
	if step%10 == 0 {
		add(planOp{kind: opBroadcast, dtype: dtInt8, count: m.bcastCount, inPlace: true})
	}
	for _, l := range m.layers {
		add(planOp{kind: opAllGather, dtype: dtBf16, count: l.gatherCount})
	}
	if rng.IntN(7) == 0 {
		add(planOp{kind: opAlltoAll, comm: commSub, dtype: dtBf16, count: m.a2aCount})
	}
	add(planOp{kind: opSend, comm: commSub, dtype: dtBf16, count: m.p2pCount})
	add(planOp{kind: opRecv, comm: commSub, dtype: dtBf16, count: m.p2pCount})
	for i := len(m.layers) - 1; i >= 0; i-- {
		l := m.layers[i]
		add(planOp{kind: opAllGather, dtype: dtBf16, count: l.gatherCount})
		add(planOp{kind: opReduceScatter, dtype: dtFloat32, count: l.scatterCount, redop: m.scatterOp})
	}
	add(planOp{kind: opAllReduce, comm: commSub, dtype: dtFloat32, count: m.gradCount, inPlace: true})
	add(planOp{kind: opAllReduce, dtype: dtFloat32, count: 1, inPlace: true})
	plan = g.addOddOps(plan, step)
	add(planOp{kind: opAllReduce, dtype: dtFloat32, count: 1, redop: 2, inPlace: true})
	for i := range plan {
		plan[i].mid = appendMid(plan[i].mid[:0], &plan[i])
	}
	g.st.plan = plan
	return plan
}

// addOddOps adds the occasional calls: zero counts (every 4th step and at
// random), an unknown datatype (every 20th step and at random), a rooted
// Reduce or Broadcast, and a call with any datatype and redop.
func (g *gen) addOddOps(plan []planOp, step int) []planOp {
	rng := g.rng
	if step%4 == 1 || rng.IntN(4) == 0 {
		plan = append(plan, planOp{kind: opAllReduce, dtype: dtFloat32, inPlace: true})
	}
	if step%20 == 7 || rng.IntN(40) == 0 {
		plan = append(plan, planOp{kind: opAllReduce, dtype: dtUnknown, count: pickCount(rng, 4)})
	}
	if rng.IntN(5) == 0 {
		root := rng.IntN(len(g.topo.world.members))
		plan = append(plan, planOp{kind: opReduce, dtype: dtFloat32 + rng.IntN(2), count: pickCount(rng, 8), redop: rng.IntN(5), root: root})
	}
	if rng.IntN(10) == 0 {
		root := rng.IntN(g.topo.minSub)
		plan = append(plan, planOp{kind: opBroadcast, comm: commSub, dtype: rng.IntN(12), count: pickCount(rng, 4), root: root, inPlace: true})
	}
	if rng.IntN(3) == 0 {
		dt := rng.IntN(12)
		plan = append(plan, planOp{kind: opAllReduce, dtype: dt, count: pickCount(rng, elemSize(dt)), redop: rng.IntN(5)})
	}
	return plan
}

// appendMid appends " count N datatype D op O root ", the part of a line that
// is the same on every rank; the root (or peer) follows.
func appendMid(b []byte, op *planOp) []byte {
	b = append(b, " count "...)
	b = strconv.AppendInt(b, op.count, 10)
	b = append(b, " datatype "...)
	b = strconv.AppendInt(b, int64(op.dtype), 10)
	b = append(b, " op "...)
	b = strconv.AppendInt(b, int64(op.redop), 10)
	return append(b, " root "...)
}

package gen

import (
	"strconv"
)

// evKind is one kind of line (or short group of lines) a rank prints in a step.
type evKind uint8

const (
	evColl   evKind = iota // collective or p2p enqueue line; arg is the plan index
	evTuning               // TUNING line of comm rank 0; arg is the plan index
	evMem                  // misc/utils.cc memory line
	evApp                  // application output; arg picks the text
	evTqdm                 // progress bar of rank 0
	evBlank                // empty line
	evWarn                 // blank line and an NCCL WARN
)

type event struct {
	kind evKind
	arg  int32
}

// stepScratch is reused from step to step.
type stepScratch struct {
	plan        []planOp
	queues      [][]event
	n           []int
	active, pos []int
	step        int
}

// writeStep writes one training step: every rank's lines interleaved, then
// rank 0's progress line.
func (g *gen) writeStep(step int, initBytes int64) {
	stats := g.nextStats(step)
	plan := g.buildPlan(step)
	g.buildQueues(step, plan)
	g.st.step = step
	start := g.sum.Bytes
	if g.arrive != nil {
		g.arrive.plan(g.st.queues, step, g.clockMs, stats.durMs)
	}
	g.interleave(g.st.n, stats.durMs, g.emitEvent)
	if g.arrive != nil {
		g.arrive.cur = 0
	}
	if g.maxSteps == 0 {
		g.maxSteps = estimateSteps(g.cfg.Size-initBytes, g.sum.Bytes-start)
	}
	g.maxSteps = max(g.maxSteps, step+1)
	g.writeProgress(step, stats)
}

// estimateSteps guesses how many steps of stepBytes fill left bytes, with
// some room to spare, for the "iteration i/N" of progress lines.
func estimateSteps(left, stepBytes int64) int {
	if stepBytes <= 0 {
		return 1
	}
	return int(max(1, (left+stepBytes-1)/stepBytes*11/10))
}

// buildQueues fills each rank's event queue for the step: the plan in order,
// with extra lines inserted at random places.
func (g *gen) buildQueues(step int, plan []planOp) {
	procs := g.topo.procs
	if g.st.queues == nil {
		g.st.queues = make([][]event, len(procs))
		g.st.n = make([]int, len(procs))
	}
	tuning := g.v.atLeast(21) && g.rng.IntN(4) == 0
	for r := range procs {
		q := g.st.queues[r][:0]
		for i := range plan {
			q = append(q, event{evColl, int32(i)})
			op := &plan[i]
			if tuning && op.kind == opAllReduce && elemSize(op.dtype) > 0 && op.count > 0 &&
				procs[r].comms[op.comm].rank == 0 {
				q = append(q, event{evTuning, int32(i)})
			}
		}
		g.st.queues[r] = q
	}
	if g.rng.IntN(8) == 0 {
		g.insert(g.rng.IntN(len(procs)), event{evMem, 0})
	}
	if g.cfg.Noise {
		g.addNoise(step)
	}
	for r := range procs {
		g.st.n[r] = len(g.st.queues[r])
	}
}

// insert puts e at a random place in rank r's queue.
func (g *gen) insert(r int, e event) {
	q := append(g.st.queues[r], event{})
	at := g.rng.IntN(len(q))
	copy(q[at+1:], q[at:])
	q[at] = e
	g.st.queues[r] = q
}

// emitEvent writes event i of rank r.
func (g *gen) emitEvent(r, i int) {
	p := &g.topo.procs[r]
	e := g.st.queues[r][i]
	if g.arrive != nil {
		g.arrive.cur = g.arrive.at[r][i]
	}
	switch e.kind {
	case evColl:
		g.emitColl(p, &g.st.plan[e.arg])
	case evTuning:
		g.emitTuning(p, &g.st.plan[e.arg])
	case evMem:
		b := append(g.begin(p), p.head...)
		g.end(p, append(b, "misc/utils.cc:233 memory stack hunk malloc(65536)"...))
	default:
		g.emitNoise(p, e)
	}
}

// emitColl writes one enqueue line, e.g.
// "host:pid:tid [dev] NCCL INFO AllGather: opCount 1a3 sendbuff 0x… recvbuff 0x… count 1048576
// datatype 9 op 0 root 0 comm 0x… [nranks=8] stream 0x…".
func (g *gen) emitColl(p *proc, op *planOp) {
	rc := &p.comms[op.comm]
	b := append(g.begin(p), p.head...)
	b = append(b, op.kind.String()...)
	b = append(b, ": opCount "...)
	b = strconv.AppendUint(b, rc.opCount, 16)
	rc.opCount++
	x := g.rng.Uint64()
	recv := 0x7f0000000000 | x&0xffffffff00
	send := recv
	switch {
	case op.kind == opSend || op.kind == opRecv:
		send = 0
	case !op.inPlace:
		send = 0x7f0000000000 | (x>>24)&0xffffffff00
	}
	b = append(b, " sendbuff "...)
	b = appendPtr(b, send)
	b = append(b, " recvbuff "...)
	b = appendPtr(b, recv)
	if op.comm == commWorld && p.rank == g.faults.mismatch && p.worldCalls == g.faults.mismatchCall {
		b = g.faults.appendMismatch(b, op)
	} else {
		b = append(b, op.mid...)
	}
	b = strconv.AppendInt(b, int64(peerOrRoot(op, rc)), 10)
	b = append(b, rc.tail...)
	if g.end(p, b) {
		g.sum.CollLines++
	}
	if op.comm == commWorld {
		p.worldCalls++
		g.afterWorldCall(p, op)
	}
}

// peerOrRoot is the root field: the peer for Send/Recv (ring neighbours in
// the comm), the root for Broadcast/Reduce, 0 otherwise.
func peerOrRoot(op *planOp, rc *rankComm) int {
	n := len(rc.info.members)
	switch op.kind {
	case opSend:
		return (rc.rank + 1) % n
	case opRecv:
		return (rc.rank + n - 1) % n
	case opBroadcast, opReduce:
		return op.root
	}
	return 0
}

// appendPtr appends a pointer as glibc's %p prints it.
func appendPtr(b []byte, v uint64) []byte {
	if v == 0 {
		return append(b, "(nil)"...)
	}
	b = append(b, "0x"...)
	return strconv.AppendUint(b, v, 16)
}

// emitTuning writes the 2.24-style TUNING line that comm rank 0 prints, e.g.
// "AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..15}".
func (g *gen) emitTuning(p *proc, op *planOp) {
	bytes := op.count * elemSize(op.dtype)
	algo, proto, hi := "RING", "SIMPLE", 15
	switch {
	case bytes < 65536:
		algo, proto, hi = "TREE", "LL", 1
	case bytes < 1048576:
		proto, hi = "LL128", 7
	}
	b := append(g.begin(p), p.head...)
	b = append(b, op.kind.String()...)
	b = append(b, ": "...)
	b = strconv.AppendInt(b, bytes, 10)
	b = append(b, " Bytes -> Algo "+algo+" proto "+proto+" channel{Lo..Hi}={0.."...)
	b = strconv.AppendInt(b, int64(hi), 10)
	g.end(p, append(b, '}'))
}

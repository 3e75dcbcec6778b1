package gen

import (
	"strconv"
	"time"
)

// watchdogTimeoutMs is PyTorch's default NCCL timeout (TORCH_NCCL timeout of 10 minutes).
const watchdogTimeoutMs = 600000

// torchOpType is the OpType PyTorch's WorkNCCL prints for an op.
func torchOpType(k opKind) string {
	switch k {
	case opAllReduce:
		return "ALLREDUCE"
	case opAllGather:
		return "_ALLGATHER_BASE"
	case opReduceScatter:
		return "_REDUCE_SCATTER_BASE"
	case opBroadcast:
		return "BROADCAST"
	case opReduce:
		return "REDUCE"
	case opSend:
		return "SEND"
	case opRecv:
		return "RECV"
	}
	return "ALLTOALL_BASE"
}

// watchdogLines renders what ProcessGroupNCCL's watchdog prints on a rank that
// waited in work S past the timeout, e.g.
// "[E0301 12:10:05.123456789 ProcessGroupNCCL.cpp:607] [Rank 4] Watchdog caught
// collective operation timeout: WorkNCCL(SeqNum=9141, OpType=ALLREDUCE,
// NumelIn=19008, NumelOut=19008, Timeout(ms)=600000) ran for 600071
// milliseconds before timing out." and the queue line after it.
func (g *gen) watchdogLines(p *proc) lines {
	s := strconv.Itoa(g.faults.watchdogSeq)
	r := strconv.Itoa(p.rank)
	n := strconv.FormatInt(p.waitCount, 10)
	ranFor := strconv.Itoa(watchdogTimeoutMs + 1 + g.rng.IntN(200))
	var l lines
	l.add(append(g.glogHead(607), "[Rank "+r+"] Watchdog caught collective operation timeout: WorkNCCL(SeqNum="+s+
		", OpType="+torchOpType(p.waitOp)+", NumelIn="+n+", NumelOut="+n+", Timeout(ms)="+strconv.Itoa(watchdogTimeoutMs)+
		") ran for "+ranFor+" milliseconds before timing out."...))
	prev := strconv.Itoa(g.faults.watchdogSeq - 1)
	l.add(append(g.glogHead(1664), "[PG 0 Rank "+r+"] Timeout at NCCL work: "+s+", last enqueued NCCL work: "+s+
		", last completed NCCL work: "+prev+"."...))
	return l
}

// glogHead is c10d's "[E0301 12:10:05.123456789 ProcessGroupNCCL.cpp:LINE] ".
func (g *gen) glogHead(line int) []byte {
	t := time.UnixMilli(g.clockMs).UTC()
	b := append([]byte(nil), "[E"...)
	b = t.AppendFormat(b, "0102 15:04:05.000")
	b = strconv.AppendInt(b, int64(100000+g.rng.IntN(900000)), 10)
	b = append(b, " ProcessGroupNCCL.cpp:"...)
	b = strconv.AppendInt(b, int64(line), 10)
	return append(b, "] "...)
}

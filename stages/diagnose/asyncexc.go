package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// PyTorch's ProcessGroupNCCL reports the error NCCL returned to a collective as its watchdog
// finds it (2.2 and later), before the watchdog's own exception line and the exception's
// message on unprefixed lines below:
//
//	[rank1]:[E1224 13:23:05.483840160 ProcessGroupNCCL.cpp:542] [Rank 12] Collective WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=778567680, NumelOut=778567680, Timeout(ms)=1800000) raised the following async exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5
//
// It is the process's NCCL exception, read as PyTorch's `DistBackendError: NCCL error ...`
// is: a remote error follows another process's fault, a CUDA error is the process's own.

// asyncExcWords end the line's head; excWord is the word both it and the watchdog's
// exception header end with, searched for once.
var (
	asyncExcWords = []byte("raised the following async ")
	excWord       = []byte("exception: ")
)

// addAsyncException keeps the line whose exception starts at msg (after excWord). It
// reports whether it kept one.
func (p *Part) addAsyncException(l *stages.Line, msg []byte) bool {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 {
		return false
	}
	it := newItem(evException, l.N, l.P)
	if r := parser.ResultIn(string(msg[:min(len(msg), maxText)])); r != parser.ResultNone {
		it.Code, it.Name = int64(r), r.String()
	}
	if it.Rank < 0 {
		it.Rank = workRank(l.Text)
		it.RankLast = it.Rank
	}
	it.Text = clip(msg)
	p.keep(it)
	return true
}

// workRank is the rank of the `[Rank 12]` or `[PG 0 Rank 12]` head before `Collective
// WorkNCCL`, -1 where the line shows none.
func workRank(t []byte) int64 {
	i := bytes.Index(t, []byte("] Collective WorkNCCL("))
	if i < 0 {
		return -1
	}
	j := bytes.LastIndexByte(t[:i], '[')
	if j < 0 {
		return -1
	}
	return stuckRank(t[j:i])
}

// asyncAt is where the exception of an async exception line starts (after excWord), -1
// where t is no such line; i is where t's first excWord starts.
func asyncAt(t []byte, i int) int {
	if i < len(asyncExcWords) || !bytes.Equal(t[i-len(asyncExcWords):i], asyncExcWords) {
		return -1
	}
	return i + len(excWord)
}

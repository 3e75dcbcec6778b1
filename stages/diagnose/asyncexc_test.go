package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestAsyncException: PyTorch's `Collective WorkNCCL(...) raised the following async
// exception: ...` is the rank's NCCL exception. Alone, a remote error is the fault the log
// holds (a peer the log does not show went away); a CUDA error is the rank's own; the
// unprefixed lines of its message below it are the rank's. PyTorch 2.2-2.3's form without
// the `[rankN]:` label gives the rank of its head. Prose that quotes the words is not read.
func TestAsyncException(t *testing.T) {
	remote := "[rank5]:[E1224 13:23:05.483840160 ProcessGroupNCCL.cpp:542] [Rank 5] Collective WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=77, NumelOut=77, Timeout(ms)=1800000) " +
		"raised the following async exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5\n"
	for _, chunk := range []int{0, 120} {
		r := diagnoseBytes(t, "job.log", []byte(remote), chunk)
		if f := r.Findings; r.Status != diagnose.StatusFault || f[0].Kind != diagnose.KindRemoteError || !slices.Equal(f[0].Ranks, []int64{5}) {
			t.Errorf("chunk %d: remote error alone: want rank 5's remote-error:\n%s", chunk, js(r))
		}
	}
	msg := "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\nLast error:\nNET/IB : Got completion from peer 10.1.1.2<4242> with status=12 opcode=0 len=0 vendor err 129 (Send)\n"
	r := diagnoseBytes(t, "job.log", []byte(remote+msg), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || f[0].Kind != diagnose.KindNetworkError || !slices.Equal(f[0].Ranks, []int64{5}) || !strings.Contains(f[0].Summary, "status=12") {
		t.Errorf("with its message: want rank 5's network error, NCCL's last error:\n%s", js(r))
	}
	cuda := "[E ProcessGroupNCCL.cpp:475] [Rank 2] Collective WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) " +
		"raised the following async exception: CUDA error: an illegal memory access was encountered\n"
	r = diagnoseBytes(t, "job.log", []byte(cuda), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || f[0].Kind != diagnose.KindCudaError || !slices.Equal(f[0].Ranks, []int64{2}) {
		t.Errorf("PyTorch 2.2's form, a CUDA error: want rank 2's cuda-error:\n%s", js(r))
	}
	quietIn(t, "# a collective that \"raised the following async exception: NCCL error\" means a peer went away\n")
}

package diagnose_test

import (
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestTableLead: lines copied from a log viewer's table (CloudWatch's `  | TIME | message`)
// are read past the row's head: a watchdog's exception, a glog ERROR line; a row of other
// text, a head alone, and a bar before no time are nothing.
func TestTableLead(t *testing.T) {
	const row = "  | 2024-08-23T22:22:51.871Z | "
	const exc = "[PG 0 Rank 6] Process group watchdog thread terminated with exception: [Rank 6] Watchdog caught collective operation timeout: " +
		"WorkNCCL(SeqNum=70426, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800038 milliseconds before timing out.\n"
	const glog = "[rank6]:[E823 22:22:51.871000000 ProcessGroupNCCL.cpp:1664] [Rank 6] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n"
	for _, log := range []string{row + exc, "| 2024-08-23T22:22:51.871Z | " + exc, row + glog} {
		firstFault(t, log, diagnose.KindWatchdogTimeout, 6)
	}
	quietIn(t, row+"Epoch 3: loss 0.25\n", row+"\n", "  | \n", "  | not a time | "+exc[:40]+"\n")
}

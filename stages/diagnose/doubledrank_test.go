package diagnose_test

import (
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestDoubledRankPrefix: torchtitan's runs print `[rank0]:[rank0]:` before PyTorch's lines
// (the launcher's prefix over the process's own); the watchdog's exception behind both is
// the rank's CUDA error, as behind one. Its other lines stay quiet.
func TestDoubledRankPrefix(t *testing.T) {
	const log = "[rank1]:2025-01-28 13:23:00,193 - root - INFO - Training starts at step 1, with local batch size 8\n" +
		"[rank1]:[rank1]:[E128 13:23:00.788972321 ProcessGroupNCCL.cpp:1897] [PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n" +
		"[rank1]:CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n"
	firstFault(t, log, diagnose.KindCudaError, 1)
	quietIn(t, "[rank0]:[rank0]:[titan] 2025-01-28 13:23:05,001 - root - INFO - step:  1  loss: 12.25  memory: 30.1GiB\n",
		"[rank0]:[rank0]:[W128 13:23:01.000000000 ProcessGroupNCCL.cpp:4115] [PG ID 0 PG GUID 0 Rank 0]  using GPU 0 to perform barrier as devices used by this process are currently unknown.\n")
}

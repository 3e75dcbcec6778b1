package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestDupGPU: NCCL's duplicate GPU WARN, on its process's line or as PyTorch's `Last error:`,
// names both ranks given one device.
func TestDupGPU(t *testing.T) {
	const warn = "gpu1:100:100 [0] NCCL INFO cudaDriverVersion 12040\n" +
		"gpu1:100:100 [0] init.cc:639 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000\n" +
		"gpu1:100:100 [0] NCCL INFO init.cc:1231 -> 5\n"
	const exc = "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3\n" +
		"ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n" +
		"Last error:\n" +
		"Duplicate GPU detected : rank 2 and rank 3 both on CUDA device 2000\n"
	for _, c := range []struct {
		log, want string
		ranks     []int64
	}{{warn, "Ranks 0 and 1 were given one GPU", []int64{0, 1}}, {exc, "Ranks 2 and 3 were given one GPU", []int64{2, 3}}} {
		if f, ok := firstFault(t, c.log, diagnose.KindInvalidUsage, c.ranks...); ok && !strings.HasPrefix(f.Summary, c.want) {
			t.Errorf("summary %q", f.Summary)
		}
	}
}

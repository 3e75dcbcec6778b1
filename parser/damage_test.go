package parser

import "testing"

// TestGarbledLevel: `] NCCL ` with no level after it is a damaged envelope, unless the
// bracket it closes is PyTorch's process-group head (`[Rank 0] NCCL watchdog thread ...`).
func TestGarbledLevel(t *testing.T) {
	for in, want := range map[string]bool{
		"node1:22:33 [0] NCCL INF":                    true,
		"node1:22:33 [0] NCCL xyz node2:4:5 [1] NCCL": true,
		"[E ProcessGroupNCCL.cpp:916] [Rank 0] NCCL watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered": false,
		"[rank3]:[E ProcessGroupNCCL.cpp:916] [PG 0 Rank 3] NCCL watchdog thread terminated with exception: x":                                       false,
		"[PG ID 0 PG GUID 0(default_pg) Rank 12] NCCL communicator was aborted":                                                                      false,
		"[PG 0 Rank 3] NCCL error: unhandled system error":                                                                                           false,
		"[Rank x] NCCL watchdog":             true,
		"[Rank ] NCCL watchdog":              true,
		"[Ranks 0] NCCL watchdog":            true,
		"[Rank 0] NCCL watchdog [3] NCCL ab": true,
	} {
		if got := garbledLevel([]byte(in)); got != want {
			t.Errorf("garbledLevel(%q) = %v, want %v", in, got, want)
		}
	}
}

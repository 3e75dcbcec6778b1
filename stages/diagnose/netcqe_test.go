package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestCQEError: libmlx5's `mlx5: <host>: got completion with error:` is a network error of
// that host; where a process of the host reports NCCL's own completion error, the NIC's line
// is evidence of that process's finding, not a second one. Under a Ray worker's prefix it
// is the worker's. Prose that quotes the words is not read.
func TestCQEError(t *testing.T) {
	dump := "mlx5: gpu-node-3: got completion with error:\n00000000 00000000 00000000 00000000\n00000000 00000000 00000000 00000000\n"
	r := diagnoseBytes(t, "job.log", []byte(dump), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || f[0].Kind != diagnose.KindNetworkError || !slices.Equal(f[0].Hosts, []string{"gpu-node-3"}) {
		t.Errorf("the NIC's line alone: want a network error of gpu-node-3:\n%s", js(r))
	}
	ib := "gpu-node-3:4100:4180 [2] transport/net_ib.cc:1294 NCCL WARN NET/IB : Got completion from peer 10.0.0.9<42000> with status=4 opcode=0 len=0 vendor err 81 (Send) localGid ::ffff:10.0.0.3 remoteGid ::ffff:10.0.0.9\n"
	r = diagnoseBytes(t, "job.log", []byte(dump+ib), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) != 1 || !slices.Equal(f[0].Processes, []string{"gpu-node-3:4100"}) ||
		!slices.ContainsFunc(f[0].Evidence, func(e diagnose.Ref) bool { return strings.HasPrefix(e.Text, "mlx5: ") }) {
		t.Errorf("with NCCL's completion error: want one finding of gpu-node-3:4100 citing the NIC's line:\n%s", js(r))
	}
	tagged := "[1,3]<stderr>:mlx5: gpu-node-3: got completion with error:\n"
	if r := diagnoseBytes(t, "job.log", []byte(tagged), 0); r.Status != diagnose.StatusFault || !slices.Equal(r.Findings[0].Hosts, []string{"gpu-node-3"}) {
		t.Errorf("behind mpirun's tag: want a network error of gpu-node-3:\n%s", js(r))
	}
	ray := "(RayWorkerWrapper pid=92234, ip=10.0.0.3) mlx5: host_unknown: got completion with error: [repeated 2x across cluster]\n"
	r = diagnoseBytes(t, "job.log", []byte(ray), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || !slices.Equal(f[0].Processes, []string{"10.0.0.3:92234"}) {
		t.Errorf("under Ray's prefix: want the worker 10.0.0.3:92234:\n%s", js(r))
	}
	quietIn(t, "mlx5 prints \"got completion with error:\" when a work request fails\n")
}

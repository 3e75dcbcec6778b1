package diagnose_test

import (
	"slices"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestLabelHost: an exception behind pdsh's label (DeepSpeed's multi-node launcher) is that
// host's, where the line names no process of its own and the NCCL lines show no process or
// show that host's; a word a program prints before a colon names no host. (Where the NCCL
// lines name their hosts otherwise, TestPasteLabels: the label's host is let go.)
func TestLabelHost(t *testing.T) {
	const exc = "RuntimeError: CUDA error: an illegal memory access was encountered\n"
	for _, c := range []struct {
		label string
		hosts []string
	}{{"192.168.1.51: ", []string{"192.168.1.51"}}, {"worker-1: ", []string{"worker-1"}}, {"error: ", []string{}}} {
		r := diagnoseBytes(t, "job.log", []byte(c.label+exc), 0)
		if f := r.Findings; r.Status != diagnose.StatusFault || len(f) == 0 || f[0].Kind != diagnose.KindCudaError || !slices.Equal(f[0].Hosts, c.hosts) {
			t.Errorf("%q: want a cuda-error of hosts %v:\n%s", c.label, c.hosts, js(r))
		}
	}
	nccl := "gpu-b:7:7 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\ngpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"gpu-a:100:100 [0] NCCL INFO comm 0x5581 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 7000 commId 0x1 - Init START\n" +
		"gpu-b:7:7 [0] NCCL INFO comm 0x5582 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 7000 commId 0x1 - Init START\n"
	r := diagnoseBytes(t, "job.log", []byte(nccl+"gpu-a: "+exc), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) == 0 || !slices.Equal(f[0].Hosts, []string{"gpu-a"}) {
		t.Errorf("a label of a host the NCCL lines name: want gpu-a's finding:\n%s", js(r))
	}
}

package diagnose_test

import (
	"slices"
	"strings"
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

// TestLabelsNameHosts: where pdsh's labels are the hosts NCCL prints (`node1: node1:15874:...`),
// a label names its host though the paste holds none of that host's NCCL lines, also read
// across a chunk's cut or a partial result; the `Last error:` message behind it is read
// without the label. Where no label is its line's host, the label's host is let go as before.
func TestLabelsNameHosts(t *testing.T) {
	const nccl = "node1: node1:15874:17284 [4] NCCL INFO Channel 00 : 4[61000] -> 3[42000] via SHM/direct/direct\n" +
		"node1: node1:15875:17285 [5] NCCL INFO Channel 00 : 5[62000] -> 4[61000] via SHM/direct/direct\n"
	const last = "node2: Last error:\nnode2: Net : Call to recv from 10.0.0.2<56843> failed : Connection refused\n"
	for _, chunk := range []int{0, len(nccl) - 3} {
		r := diagnoseBytes(t, "job.log", []byte(nccl+last), chunk)
		f := r.Findings
		if r.Status != diagnose.StatusFault || len(f) == 0 || !slices.Equal(f[0].Hosts, []string{"node2"}) ||
			f[0].Evidence[0].Text != "Net : Call to recv from 10.0.0.2<56843> failed : Connection refused" {
			t.Errorf("chunk %d: want node2's error, its message unlabelled:\n%s", chunk, js(r))
		}
	}
	r := diagnoseBytes(t, "job.log", []byte(strings.ReplaceAll(nccl, "node1: node1:", "10.0.0.1: node1:")+strings.ReplaceAll(last, "node2: ", "10.0.0.2: ")), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || len(f) == 0 || len(f[0].Hosts) != 0 {
		t.Errorf("labels by address: want no host named:\n%s", js(r))
	}
}

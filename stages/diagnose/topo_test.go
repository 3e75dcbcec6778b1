package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestTopologyError: a WARN of NCCL's topology detection whose chain returns a system error
// (a sysfs path a VM hides, a GPU NVML cannot find, a graph file for another machine) is a
// topology-error on its process, which says what could not be read; the same result from
// other code stays a system-error: an IB device's path is no topology's, nor is NVML's word
// that the driver and its library differ.
func TestTopologyError(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[5]
	for _, c := range []struct {
		name, lines string
		want        diagnose.Kind
	}{
		{"sysfs", chain(p, "graph/xml.cc:332", "Could not find real path of /sys/class/pci_bus/0000:0d/../../0000:0d:00.0", 2, "graph/xml.cc:648", "graph/topo.cc:523", "init.cc:581"), diagnose.KindTopology},
		{"nvml", chain(p, "misc/nvmlwrap.cc:187", "nvmlDeviceGetHandleByPciBusId() failed: Not Found", 2, "graph/xml.cc:850", "init.cc:581"), diagnose.KindTopology},
		{"graph file", chain(p, "graph/search.cc:719", "XML Import Channel : dev 1 not found.", 2, "graph/search.cc:749", "init.cc:840"), diagnose.KindTopology},
		{"ib device path", chain(p, "transport/net_ib.cc:67", "Could not find real path of mlx5_0 (/sys/class/infiniband/mlx5_0/device)", 2, "init.cc:581"), diagnose.KindSystemError},
		// NVML that cannot start for a driver and library that differ: the driver's fault.
		{"driver mismatch", chain(p, "misc/nvmlwrap.cc:98", "nvmlInit_v2() failed: Driver/library version mismatch", 2, "misc/nvmlwrap.cc:179", "init.cc:581"), diagnose.KindSystemError},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := diagnoseBytes(t, "job.log", append(slices.Clone(data), c.lines...), 0)
			if r.Status != diagnose.StatusFault || r.Findings[0].Kind != c.want || !slices.Equal(r.Findings[0].Ranks, []int64{5}) {
				t.Fatalf("want a %s of rank 5 first:\n%s", c.want, js(r))
			}
			if c.want == diagnose.KindTopology && !strings.Contains(r.Findings[0].Summary, "could not read the machine's topology first") {
				t.Errorf("summary %q", r.Findings[0].Summary)
			}
			if c.name == "driver mismatch" && !strings.Contains(r.Findings[0].Summary, "the GPU driver and its library differ") {
				t.Errorf("summary %q", r.Findings[0].Summary)
			}
		})
	}
	// Without its chain, a topology WARN is a notice (`Topology detection : could not read
	// ..., ignoring`): the job stays healthy.
	quietIn(t, warnAt(p, 7005, "graph/xml.cc:540", "Topology detection : could not read /sys/devices/system/node/node0/cpumap, ignoring"))
}

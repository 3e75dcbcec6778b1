package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// fabricCQ is libfabric's warning of a completion that ended in error, as EFA prints it.
const fabricCQ = "libfabric:451707:1708520807::efa:cq:efa_rdm_txe_handle_error():737<warn> err: 5, message: Invalid address My EFA addr: fi_addr_efa://[fe80::13:c2ff:fe6f:f03d]:0:1072483550 My host id: i-0db7083f3fcbebb65 Peer EFA addr: fi_addr_efa://[fe80::b8:aff:fe44:425]:0:947699476 Peer host id: i-0ce6d3d57139f053c (7)\n"

// TestFabricCQError: libfabric's warning of a failed completion is a network error of the
// process of its pid, named by its host where the NCCL lines show that pid once, read at a
// line's start, behind a collector's time and behind a launcher's label the parser reads
// (a pdsh host label before it is not read); the library's other
// lines (its settings at info, a warning of another subsystem) are no fault.
func TestFabricCQError(t *testing.T) {
	nccl := "ip-172-31-69-127:451707:453373 [4] NCCL INFO Channel 00/0 : 0[4] -> 8[4] [send] via NET/AWS Libfabric/4/GDRDMA\n"
	for _, c := range []struct {
		name, log string
		ranks     []int64
	}{
		{"at the start", nccl + fabricCQ, nil},
		{"behind a time", "2024-02-21T12:00:07.123Z " + fabricCQ + nccl, nil},
		{"behind mpirun's label", nccl + "[1,3]<stderr>:" + fabricCQ, []int64{3}}, // the label's rank
	} {
		f, ok := firstFault(t, c.log, diagnose.KindNetworkError, c.ranks...)
		if ok && (!slices.Equal(f.Processes, []string{"ip-172-31-69-127:451707"}) || !strings.Contains(f.Summary, "libfabric efa: err: 5, message: Invalid address")) {
			t.Errorf("%s: %+v", c.name, f)
		}
	}
	// Two processes of that pid on two hosts: the line names its pid, and neither host.
	two := nccl + strings.Replace(nccl, "ip-172-31-69-127", "ip-172-31-69-128", 1) + fabricCQ
	if f, ok := firstFault(t, two, diagnose.KindNetworkError); ok && (!slices.Equal(f.Processes, []string{"pid 451707"}) || len(f.Hosts) != 0) {
		t.Errorf("two hosts with that pid: %v %v", f.Processes, f.Hosts)
	}
	quietIn(t,
		"libfabric:1160:1747941878::efa:core:fi_param_get_():372<info> variable timeout_interval=<not set>\n",
		"libfabric:1160:1747941878::efa:ep_ctrl:efa_rdm_ep_open():123<warn> fork support is not enabled\n",
		"libfabric:1160:1747941878::efa:cq:efa_rdm_cq_poll():88<info> polled 4 completions\n",
		"libfabric is at version 1.22\n",
		"libfabric:1160:1747941878::efa:cq:efa_rdm_txe_handle_error():737<warn>\n",
	)
}

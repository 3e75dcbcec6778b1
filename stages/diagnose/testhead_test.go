package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestNCCLTestsHeader: nccl-tests' header lists each rank's host, pid (2.x) and device; a
// failure line that names no process takes the one the header names (its host's one pid; 1.x's
// one host), and none where the host has several; the header alone is no fault.
func TestNCCLTestsHeader(t *testing.T) {
	head := "# Using devices\n" +
		"#  Rank  0 Group  0 Pid 209227 on a100-node-0 device  0 [0x07] NVIDIA A100-SXM4-80GB\n" +
		"#  Rank  1 Group  0 Pid 209227 on a100-node-0 device  1 [0x0b] NVIDIA A100-SXM4-80GB\n"
	fail := "a100-node-0: Test NCCL failure common.cu:1204 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '\n"
	r := diagnoseBytes(t, "job.log", []byte(head+fail), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || !slices.Equal(f[0].Processes, []string{"a100-node-0:209227"}) {
		t.Errorf("2.13's header: want a100-node-0:209227:\n%s", js(r))
	}
	old := "#   Rank  0 on     node03 device  0 [0x00] Tesla P100-PCIE-16GB\n#   Rank  1 on     node03 device  1 [0x00] Tesla P100-PCIE-16GB\n" +
		"NCCL failure all_reduce.cu:95 'unhandled cuda error'\n"
	r = diagnoseBytes(t, "job.log", []byte(old), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || !strings.HasPrefix(f[0].Summary, "node03 ") {
		t.Errorf("1.x's header and bare failure: want node03:\n%s", js(r))
	}
	two := head + "#  Rank  2 Group  0 Pid 209228 on a100-node-0 device  2 [0x0c] NVIDIA A100-SXM4-80GB\n" + fail
	r = diagnoseBytes(t, "job.log", []byte(two), 0)
	if f := r.Findings; r.Status != diagnose.StatusFault || !slices.Equal(f[0].Processes, []string{"a100-node-0"}) {
		t.Errorf("two pids on the host: want the host alone:\n%s", js(r))
	}
	if r := diagnoseBytes(t, "job.log", []byte(head), 0); r.Status == diagnose.StatusFault {
		t.Errorf("the header alone: status %s:\n%s", r.Status, js(r))
	}
	quietIn(t, head, "# Rank on node: see the table below\n")
}

// TestTestHeadSeveralRanks: a process nccl-tests' header lists with several ranks (one for
// each GPU it drives, -g 8) is named by none of them: a WARN on its GPU 7 is not rank 0's.
func TestTestHeadSeveralRanks(t *testing.T) {
	var b strings.Builder
	for r := 0; r < 8; r++ {
		fmt.Fprintf(&b, "#   Rank %2d Pid  47863 on node-a device %2d [0x1a] Tesla V100-SXM2-32GB\n", r, r)
	}
	b.WriteString("node-a:47863:47884 [7] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error No such device\n")
	r := diagnoseBytes(t, "job.log", []byte(b.String()), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings[0].Ranks) != 0 || !slices.Equal(r.Findings[0].Processes, []string{"node-a:47863"}) ||
		!slices.Equal(r.Findings[0].GPUs, []int64{7}) {
		t.Errorf("want node-a:47863's fault on GPU 7, of no one rank:\n%s", js(r))
	}
}

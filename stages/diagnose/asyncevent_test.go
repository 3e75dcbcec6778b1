package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// asyncQP is NET/IB's async event thread's WARN for a queue pair's fatal event (2.19+).
func asyncQP(pid int, dev string, qp string) string {
	return fmt.Sprintf("node-0:%d:%d [0] transport/net_ib.cc:154 NCCL WARN NET/IB : %s:1 async fatal event on QP (0x%s): invalid request local work queue error\n", pid, pid+60, dev, qp)
}

// TestAsyncFatalEventShared: queue pairs of six processes on one node, on six NICs, meet
// the same fatal event: one cause the node's processes share, the first printed on top, and
// the communicator's fatal error that follows on one of them is no finding of its own.
func TestAsyncFatalEventShared(t *testing.T) {
	var b strings.Builder
	b.WriteString("node-0:5898:6033 [0] NCCL INFO NET/IB: IbDev 0 Port 1 qpn 2740 set_ece={supported=1, vendor_id=0x15b3, options=0x0, comp_mask=0x0}\n")
	for i, dev := range []string{"mlx5_3", "mlx5_7", "mlx5_2", "mlx5_6", "mlx5_5", "mlx5_4"} {
		b.WriteString(asyncQP(5900+i, dev, fmt.Sprintf("7%02xd78661238", i*17)))
	}
	b.WriteString("node-0:5905:6045 [1] transport/net_ib.cc:113 NCCL WARN communicator encountered a fatal error (detected in ncclIbIrecv)\n" +
		"node-0:5905:6045 [1] NCCL INFO transport/net_ib.cc:2117 -> 2\n" +
		"node-0:5905:6045 [1] NCCL INFO proxy.cc:912 -> 2 [Progress Thread]\n")
	r := diagnoseBytes(t, "job.log", []byte(b.String()), 0)
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		t.Fatalf("status %s, want fault:\n%s", r.Status, js(r))
	}
	f := r.Findings[0]
	if f.Kind != diagnose.KindNetworkError || !f.Shared || !slices.Equal(f.Hosts, []string{"node-0"}) || !strings.Contains(f.Summary, "async fatal event on QP") {
		t.Errorf("first finding %s shared %v hosts %v: %s; want one network error shared by node-0's processes", f.Kind, f.Shared, f.Hosts, f.Summary)
	}
	if len(r.Findings) != 1 {
		t.Errorf("%d findings, want the shared one only:\n%s", len(r.Findings), js(r))
	}
}

// TestAsyncFatalEventOne: one process's fatal event is that process's network error, ahead
// of the fatal error it leads its communicator to report.
func TestAsyncFatalEventOne(t *testing.T) {
	log := "node-1:700:700 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>\n" +
		"node-2:800:800 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.2<0>\n" +
		"node-2:800:860 [0] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_0:1 async fatal event: local catastrophic error\n" +
		"node-2:800:861 [0] transport/net_ib.cc:113 NCCL WARN communicator encountered a fatal error (detected in ncclIbIsend)\n" +
		"node-2:800:861 [0] NCCL INFO transport/net_ib.cc:2117 -> 2\n"
	r := diagnoseBytes(t, "job.log", []byte(log), 0)
	if len(r.Findings) == 0 {
		t.Fatalf("no finding:\n%s", js(r))
	}
	if f := r.Findings[0]; f.Kind != diagnose.KindNetworkError || !slices.Equal(f.Processes, []string{"node-2:800"}) || !strings.Contains(f.Summary, "local catastrophic error") {
		t.Errorf("first finding %s %v: %s; want node-2:800's device fatal event", f.Kind, f.Processes, f.Summary)
	}
}

// TestAsyncNoticesHealthy: the async events NCCL reports as non-fatal (a port going down
// and up, an event on the receive queue it does not use) prove no fault by themselves.
func TestAsyncNoticesHealthy(t *testing.T) {
	log := "node-1:700:700 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>\n" +
		"node-1:700:760 [0] transport/net_ib.cc:160 NCCL WARN NET/IB : mlx5_0:1 Got async error event: port error\n" +
		"node-1:700:760 [0] transport/net_ib.cc:160 NCCL WARN NET/IB : mlx5_0:1 Got async error event: port active\n" +
		"node-1:700:760 [0] transport/net_ib.cc:152 NCCL WARN NET/IB : mlx5_0:1 async fatal event on SRQ, unused for now (0x5581a2b3c4d0): SRQ catastrophic error\n" +
		"node-1:700:760 [0] transport/net_ib.cc:166 NCCL WARN NET/IB : mlx5_0:1 unknown event type (19)\n" +
		"node-1:700:700 [0] NCCL INFO comm 0x55d0e39d43a0 rank 0 nranks 1 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1 - Init COMPLETE\n"
	if r := diagnoseBytes(t, "job.log", []byte(log), 0); r.Status == diagnose.StatusFault {
		t.Errorf("status fault on async notices:\n%s", js(r))
	}
}

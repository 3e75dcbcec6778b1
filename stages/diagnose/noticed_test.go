package diagnose_test

import (
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// ncclInit is an NCCL init line of the process host:pid as rank r of a 4-rank communicator.
func ncclInit(host, pid, rank string) string {
	return host + ":" + pid + ":" + pid + " [0] NCCL INFO comm 0x55d0 rank " + rank + " nranks 4 cudaDev 0 nvmlDev 0 busId 1000 commId 0x1a2b - Init COMPLETE\n"
}

// TestMPINoticedSignal: Open MPI's launcher on the process a signal killed (`mpirun noticed
// that process rank R with PID P on node H exited on signal S (name).`) names the first
// failure, with or without NCCL lines in the log; before, the line was not read and the log
// was unknown (no NCCL lines) or healthy.
func TestMPINoticedSignal(t *testing.T) {
	const notice = "mpirun noticed that process rank 1 with PID 2202 on node gpu-b exited on signal 11 (Segmentation fault).\n"
	for _, c := range []struct{ name, log, want string }{
		{"alone", "step 10 loss 2.3\n" + notice,
			"rank 1 (gpu-b:2202) was killed by signal 11 (Segmentation fault) first, as the launcher reports; the other ranks' errors follow from it."},
		{"with NCCL", ncclInit("gpu-a", "1101", "0") + ncclInit("gpu-b", "2202", "1") + "----\n" + notice,
			"rank 1 (gpu-b:2202) was killed by signal 11 (Segmentation fault) first, as the launcher reports; the other ranks' errors follow from it."},
		{"prterun, no name", ncclInit("gpu-a", "1101", "0") + "prterun noticed that process rank 0 with PID 1101 on node gpu-a exited on signal 9.\n",
			"rank 0 (gpu-a:1101) was killed by signal 9 first, as the launcher reports; the other ranks' errors follow from it."},
	} {
		r := diagnoseBytes(t, "mpi.log", []byte(c.log), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Fatalf("%s: status %s (%s), %d findings", c.name, r.Status, r.Reason, len(r.Findings))
		}
		if f := r.Findings[0]; f.Summary != c.want || f.Kind != diagnose.KindProcessExit {
			t.Errorf("%s: %s %q\nwant process-exit %q", c.name, f.Kind, f.Summary, c.want)
		}
		checkTexts(t, c.name, r)
	}
}

// TestOpRequiresNCCL: TensorFlow's `OP_REQUIRES failed at nccl_*.cc:N : <status>: <nccl
// result's words>` is its process's own NCCL error, of the kind its result names, on the
// log's one process; before, it was not read and the log was healthy. An op that is not
// NCCL's, failing, leaves a healthy log healthy.
func TestOpRequiresNCCL(t *testing.T) {
	const head = "2023-05-02 10:11:12.123456: W tensorflow/core/framework/op_kernel.cc:1830] "
	for _, c := range []struct {
		line, want string
		kind       diagnose.Kind
	}{
		{"OP_REQUIRES failed at nccl_ops.cc:104 : UNKNOWN: unhandled cuda error",
			"rank 0 (tf-0:77) hit a CUDA error first: OP_REQUIRES failed at nccl_ops.cc:104: UNKNOWN: unhandled cuda error", diagnose.KindCudaError},
		{"OP_REQUIRES failed at nccl_create.cc:112 : Internal: unhandled system error",
			"rank 0 (tf-0:77) hit a system error first: OP_REQUIRES failed at nccl_create.cc:112: Internal: unhandled system error", diagnose.KindSystemError},
	} {
		r := diagnoseBytes(t, "tf.log", []byte(ncclInit("tf-0", "77", "0")+head+c.line+"\n"), 0)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Fatalf("%q: status %s (%s)", c.line, r.Status, r.Reason)
		}
		if f := r.Findings[0]; f.Summary != c.want || f.Kind != c.kind {
			t.Errorf("%q: %s %q\nwant %s %q", c.line, f.Kind, f.Summary, c.kind, c.want)
		}
		checkTexts(t, c.line, r)
	}
	r := diagnoseBytes(t, "tf.log", []byte(ncclInit("tf-0", "77", "0")+head+"OP_REQUIRES failed at conv_ops.cc:1068 : Resource exhausted: OOM when allocating tensor\n"), 0)
	if r.Status == diagnose.StatusFault {
		t.Errorf("a convolution's failure: status %s, %q", r.Status, r.Findings[0].Summary)
	}
}

package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// oneProcInit is the init of one process driving two GPUs, as llama.cpp's tensor split or
// a single TensorFlow process does.
const oneProcInit = "ph3a:1:103 [0] NCCL INFO Channel 01/04 : 0 1\n" +
	"ph3a:1:104 [1] NCCL INFO Trees [0] -1/-1/-1->1->0 [1] 0/-1/-1->1->-1\n"

// TestCudaErrorLine: a program's own `CUDA error: ...` line, printed as it aborts, is a CUDA
// error, and where the NCCL lines show one process it is that process's; the NCCL INFO lines
// its buffered output prints after it change nothing.
func TestCudaErrorLine(t *testing.T) {
	log := oneProcInit +
		"CUDA error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)\n" +
		"  current device: 0, in function ggml_backend_cuda_comm_allreduce_tensor at /app/ggml/src/ggml-cuda/ggml-cuda.cu:1237\n" +
		"  ncclGroupEnd()\n" +
		"/app/ggml/src/ggml-cuda/ggml-cuda.cu:97: CUDA error\n" +
		"ph3a:1:103 [0] NCCL INFO P2P Chunksize set to 131072\n"
	for _, chunk := range []int{0, 64} {
		r := diagnoseBytes(t, "job.log", []byte(log), chunk)
		if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
			t.Fatalf("chunk %d: status %s, want fault:\n%s", chunk, r.Status, js(r))
		}
		f := r.Findings[0]
		if f.Kind != diagnose.KindCudaError || !slices.Equal(f.Processes, []string{"ph3a:1"}) || !strings.Contains(f.Summary, "unhandled cuda error") {
			t.Errorf("chunk %d: first finding %s %v: %s; want ph3a:1's CUDA error", chunk, f.Kind, f.Processes, f.Summary)
		}
	}
}

// TestCudaErrorLineOOM: an out-of-memory CUDA error is the OOM kind.
func TestCudaErrorLineOOM(t *testing.T) {
	r := diagnoseBytes(t, "job.log", []byte(oneProcInit+"[rank0]: CUDA error: out of memory\n"), 0)
	if len(r.Findings) == 0 || r.Findings[0].Kind != diagnose.KindOOM {
		t.Errorf("want an OOM finding:\n%s", js(r))
	}
}

// TestCudaErrorLineManyProcs: where the NCCL lines show two processes and the line names
// neither, the error is no one's in particular.
func TestCudaErrorLineManyProcs(t *testing.T) {
	log := oneProcInit + "ph3b:2:203 [0] NCCL INFO Channel 01/04 : 0 1\n" +
		"CUDA error: an illegal memory access was encountered\n"
	r := diagnoseBytes(t, "job.log", []byte(log), 0)
	if len(r.Findings) == 0 || r.Findings[0].Kind != diagnose.KindCudaError {
		t.Fatalf("want a CUDA error finding:\n%s", js(r))
	}
	if f := r.Findings[0]; len(f.Processes) != 0 {
		t.Errorf("finding names %v, of two processes the line names neither", f.Processes)
	}
}

// TestCudaErrorWordsNotAtStart: the words inside other text (a log line quoting them, a
// message about them) are no error line.
func TestCudaErrorWordsNotAtStart(t *testing.T) {
	log := oneProcInit +
		"INFO: retrying after the last run's CUDA error: none seen since\n" +
		"CUDA error: \n" +
		"ph3a:1:103 [0] NCCL INFO comm 0x55d0e39d43a0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1 - Init COMPLETE\n" +
		"ph3a:1:104 [1] NCCL INFO comm 0x55d0e39d43b0 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 1c000 commId 0x1 - Init COMPLETE\n"
	if r := diagnoseBytes(t, "job.log", []byte(log), 0); r.Status == diagnose.StatusFault {
		t.Errorf("status fault:\n%s", js(r))
	}
}

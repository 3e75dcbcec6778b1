package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// torchrunFailed is torchrun's line for the process that ended first.
const torchrunFailed = "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 227) of binary: /opt/conda/bin/python\n"

// TestLauncherLastWordsKind: the process the launcher names first takes the kind its last
// words give by NCCL's word (invalid usage, a system or internal error), not process-exit;
// an application's exception leaves it a process-exit.
func TestLauncherLastWordsKind(t *testing.T) {
	for _, c := range []struct {
		name, words string
		kind        diagnose.Kind
	}{
		{"duplicate GPU", "[rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5\n" +
			"[rank0]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n[rank0]: Last error:\n" +
			"[rank0]: Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 1c000\n", diagnose.KindInvalidUsage},
		{"application", "[rank0]: KeyError: 'labels'\n", diagnose.KindProcessExit},
	} {
		log := c.words + "E0124 16:00:17.407000 20671 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 20692) of binary: /usr/bin/python\n"
		r := diagnoseBytes(t, c.name, []byte(log), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != c.kind {
			t.Errorf("%s: want %s first:\n%s", c.name, c.kind, js(r))
		}
	}
}

// TestLauncherClaimsResult: an NCCL exception no line ties to a process, printed before the
// launcher names the process that ended first, is that process's last words where its result
// is one a process meets on its own; ncclRemoteError, another process's labelled error, or
// two results leave the exit as it was.
func TestLauncherClaimsResult(t *testing.T) {
	const cuda = "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:47, unhandled cuda error, NCCL version 21.0.3\n" +
		"ncclUnhandledCudaError: Call to CUDA function failed.\n"
	f, ok := firstFault(t, cuda+torchrunFailed, diagnose.KindCudaError)
	if ok && (!slices.Equal(f.Processes, []string{"local rank 0 (pid 227)"}) || !strings.Contains(f.Summary, "unhandled cuda error")) {
		t.Errorf("want local rank 0's CUDA error with its words: %+v", f)
	}
	const remote = "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:47, remote process exited or there was a network error, NCCL version 2.21.5\n"
	const system = "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:47, unhandled system error, NCCL version 2.21.5\n"
	for name, log := range map[string]string{
		"remote":      remote + torchrunFailed,
		"after":       torchrunFailed + cuda,
		"two results": cuda + system + torchrunFailed,
		"labelled":    "[rank3]: " + cuda + torchrunFailed,
	} {
		r := diagnoseBytes(t, name, []byte(log), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindProcessExit {
			t.Errorf("%s: want the process-exit first:\n%s", name, js(r))
		}
	}
}

// TestLastErrorOOM: an NCCL exception whose `Last error:` is `Cuda failure 2 'out of
// memory'` is an oom, as that WARN would be, though the exception's result is
// ncclUnhandledCudaError.
func TestLastErrorOOM(t *testing.T) {
	const log = "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n" +
		"ncclUnhandledCudaError: Call to CUDA function failed.\n" +
		"Last error:\n" +
		"Cuda failure 2 'out of memory'\n"
	if f, ok := firstFault(t, log, diagnose.KindOOM); ok && !strings.Contains(f.Summary, "ran out of GPU memory first") {
		t.Errorf("want the sentence of an oom: %+v", f)
	}
}

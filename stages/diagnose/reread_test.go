package diagnose_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/internal/sharedtest"
)

// labelForms are what a fan-out launcher or a paste puts before every line: pdsh's host
// label (DeepSpeed's multi-node launcher), a Markdown quote, a container log file's time and
// stream tag.
var labelForms = map[string]func(int) string{
	"pdsh":  func(int) string { return "worker-1: " },
	"quote": func(int) string { return "> " },
	"cri":   func(i int) string { return timeForms["iso"](i) + "stdout F " },
}

// labelledLogs are failures the parser's lines of a launcher, an exception or a watchdog
// name, which the parser does not read behind those labels.
var labelledLogs = map[string]string{
	"torchrun block": "gpu-a:87930:87930 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"gpu-a:87931:87931 [1] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n" +
		"============================================================\n" +
		"train.py FAILED\n" +
		"------------------------------------------------------------\n" +
		"Root Cause (first observed failure):\n" +
		"[0]:\n" +
		"  time      : 2025-07-29_17:40:22\n" +
		"  host      : gpu-a\n" +
		"  rank      : 1 (local_rank: 1)\n" +
		"  exitcode  : 1 (pid: 87931)\n" +
		"  error_file: <N/A>\n" +
		"  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n" +
		"============================================================\n",
	"exception": "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"Traceback (most recent call last):\n" +
		"  File \"train.py\", line 10, in <module>\n" +
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB\n",
	"srun exit": "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"gpu-b:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n" +
		"srun: error: gpu-b: task 1: Exited with exit code 1\n",
	// nccl-tests' header, result and trail lines, which diagnose reads itself; a lower-case
	// host's own `gpu-a: Test NCCL failure` is not taken for a label.
	"nccl-tests": "#  Rank  0 Group  0 Pid  41001 on      gpu-a device  0 [0x07] NVIDIA H100 80GB HBM3\n" +
		"#  Rank  1 Group  0 Pid  41002 on      gpu-a device  1 [0x08] NVIDIA H100 80GB HBM3\n" +
		"gpu-a:41002:41002 [1] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"gpu-a: Test NCCL failure common.cu:961 'unhandled cuda error (run with NCCL_DEBUG=INFO for details) / '\n" +
		" .. gpu-a pid 41002: Test failure common.cu:844\n",
	// srun -l's label before the host's: the line keeps srun's rank.
	"srun label": "0: gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"3: RuntimeError: CUDA error: an illegal memory access was encountered\n",
}

// TestPasteLabels: behind a host's label, a quote's `> ` or a container log's time and tag
// on every line, the first finding is the one the plain log gives; a healthy log stays
// healthy, and a program's own `prog: ` line is read as it was.
func TestPasteLabels(t *testing.T) {
	sameFirstBehind(t, labelledLogs, labelForms, "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"+
		"loader: epoch 0 batch 12 tokens/s 18234.5 loss 2.318\n"+
		"note: the error rate is fine\n")
}

// TestSharedSamplesLabelled: every shared sample behind pdsh's label or a quote on every line
// gives the first finding it gives as it is.
func TestSharedSamplesLabelled(t *testing.T) {
	for i, path := range sharedtest.Glob(t, "samples/*.log") {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := firstOf(diagnoseBytes(t, name, data, 0))
		for j, form := range []string{"pdsh", "quote"} {
			if testing.Short() && j != i%2 {
				continue // -short: one form a sample, in turn
			}
			if got := firstOf(diagnoseBytes(t, name, timed(data, labelForms[form]), 0)); got != want {
				t.Errorf("%s behind %s: %s, plain %s", name, form, got, want)
			}
		}
	}
}

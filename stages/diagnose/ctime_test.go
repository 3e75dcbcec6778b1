package diagnose_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/internal/sharedtest"
	"github.com/nccllog/nccllog/stages/diagnose"
)

// timeForms are collectors' and loggers' times put before every line: `kubectl logs
// --timestamps`, Python logging's, syslog's; the i-th line's is i*7 ms after the first.
var timeForms = map[string]func(i int) string{
	"iso": func(i int) string {
		return fmt.Sprintf("2024-05-01T10:00:%02d.%06dZ ", i*7/1000, i*7%1000*1000)
	},
	"pylog":  func(i int) string { return fmt.Sprintf("2024-05-01 10:00:%02d,%03d ", i*7/1000, i*7%1000) },
	"syslog": func(i int) string { return fmt.Sprintf("May  1 10:00:%02d ", i*7/1000) },
}

// timed is log with form's time before each of its lines.
func timed(log []byte, form func(int) string) []byte {
	var out []byte
	for i, line := range bytes.SplitAfter(log, []byte("\n")) {
		if len(line) > 0 {
			out = append(append(out, form(i)...), line...)
		}
	}
	return out
}

// firstOf is what a reader takes from a report: its status and its first finding's kind,
// ranks, hosts and processes.
func firstOf(r diagnose.Report) string {
	if len(r.Findings) == 0 {
		return fmt.Sprint(r.Status)
	}
	f := r.Findings[0]
	return fmt.Sprintf("%s %s ranks %v hosts %v processes %v", r.Status, f.Kind, f.Ranks, f.Hosts, f.Processes)
}

// timedLogs are failures whose other text names the process: a launcher's block, a Ray
// worker's prefix, an exception's lines, a shell's line on a killed child.
var timedLogs = map[string]string{
	"ray worker": "(RayWorker pid=615, ip=10.72.7.6) gpu-a:615:700 [0] NCCL INFO Bootstrap : Using eth0:10.72.7.6<0>\n" +
		"(RayWorker pid=615, ip=10.72.7.6) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB\n",
	"mpirun block": "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"gpu-b:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n" +
		"--------------------------------------------------------------------------\n" +
		"mpirun noticed that process rank 1 with PID 200 on node gpu-b exited on signal 9 (Killed).\n" +
		"--------------------------------------------------------------------------\n",
	"shell kill": "gpu-a:45678:45678 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"/var/spool/slurmd/job123/slurm_script: line 12: 45678 Killed                  python train.py\n",
	"srun exit": "0: gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
		"1: gpu-b:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n" +
		"srun: error: gpu-b: task 1: Exited with exit code 1\n",
}

// TestCollectorTimes: behind a collector's time on every line, the first finding is the one
// the plain log gives (other text is read past the time), and a healthy log stays healthy.
func TestCollectorTimes(t *testing.T) {
	sameFirstBehind(t, timedLogs, timeForms, "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"+
		"2024-05-01 10:00:00 is when this run began\n")
}

// sameFirstBehind checks that each of logs, a fault, gives its plain first finding with each
// of forms before every line, and that healthy stays no fault behind each.
func sameFirstBehind(t *testing.T, logs map[string]string, forms map[string]func(int) string, healthy string) {
	t.Helper()
	for name, log := range logs {
		want := firstOf(diagnoseBytes(t, name, []byte(log), 0))
		if !bytes.HasPrefix([]byte(want), []byte("fault")) {
			t.Fatalf("%s: the plain log is no fault: %s", name, want)
		}
		for form, f := range forms {
			if got := firstOf(diagnoseBytes(t, name, timed([]byte(log), f), 0)); got != want {
				t.Errorf("%s behind %s: %s, plain %s", name, form, got, want)
			}
		}
	}
	for form, f := range forms {
		if r := diagnoseBytes(t, "healthy", timed([]byte(healthy), f), 0); r.Status == diagnose.StatusFault {
			t.Errorf("healthy behind %s: %s", form, js(r))
		}
	}
}

// TestSharedSamplesTimed: every shared sample behind a collector's time on every line gives
// the first finding it gives as it is.
func TestSharedSamplesTimed(t *testing.T) {
	forms := slices.Sorted(func(yield func(string) bool) {
		for k := range timeForms {
			if !yield(k) {
				return
			}
		}
	})
	for i, path := range sharedtest.Glob(t, "samples/*.log") {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := firstOf(diagnoseBytes(t, name, data, 0))
		for j, form := range forms {
			if testing.Short() && j != i%len(forms) {
				continue // -short: one form a sample, in turn
			}
			if got := firstOf(diagnoseBytes(t, name, timed(data, timeForms[form]), 0)); got != want {
				t.Errorf("%s behind %s times: %s, plain %s", name, form, got, want)
			}
		}
	}
}

// TestTrailingBlanks: blanks a paste or an editor leaves at the lines' ends change no first
// finding; nccl-tests' failure line is known by its closing quote, DeepSpeed's launcher's by
// the code it ends with.
func TestTrailingBlanks(t *testing.T) {
	logs := map[string]string{
		"nccl-tests": "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
			"gpu-b:200:200 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n" +
			"gpu-b: Test NCCL failure common.cu:961 'internal error - please report this issue to the NCCL developers / '\n" +
			" .. gpu-b pid 200: Test failure common.cu:844\n" +
			"gpu-a:100:300 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer 10.0.0.2<40318>\n",
		"deepspeed": "gpu-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
			"[2024-03-05 10:11:12,345] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', '--local_rank=3'] exits with return code = -9\n",
	}
	for name, log := range timedLogs {
		logs[name] = log
	}
	for name, log := range logs {
		want := firstOf(diagnoseBytes(t, name, []byte(log), 0))
		if !strings.HasPrefix(want, "fault") {
			t.Fatalf("%s: the plain log is no fault: %s", name, want)
		}
		for _, blanks := range []string{" ", "   ", "\t", " \r"} {
			padded := strings.ReplaceAll(log, "\n", blanks+"\n")
			if got := firstOf(diagnoseBytes(t, name, []byte(padded), 0)); got != want {
				t.Errorf("%s with %q at the lines' ends: %s, plain %s", name, blanks, got, want)
			}
		}
	}
}

// TestContainerLogTag: a container's log file puts the stream and a tag after the time
// (`2024-05-01T10:00:00.123456789Z stdout F `); the lines diagnose reads itself (a shell's on
// a killed child, srun's) are read behind both. (The failure lines the parser reads, an
// exception or mpirun's notice, are not read behind them yet.)
func TestContainerLogTag(t *testing.T) {
	cri := func(i int) string {
		return fmt.Sprintf("2024-05-01T10:00:%02d.%06d000Z stdout F ", i*7/1000, i*7%1000*1000)
	}
	for _, name := range []string{"shell kill", "srun exit"} {
		want := firstOf(diagnoseBytes(t, name, []byte(timedLogs[name]), 0))
		if got := firstOf(diagnoseBytes(t, name, timed([]byte(timedLogs[name]), cri), 0)); got != want {
			t.Errorf("%s in a container's log file: %s, plain %s", name, got, want)
		}
	}
}

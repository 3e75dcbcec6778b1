package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestLauncherChildLines: DeepSpeed's launcher's line on the first child that failed, a
// shell's on a child a signal killed, and srun's Out Of Memory task state each name the
// process that ended first; the same words in a healthy job's prose, a zero code and a
// SIGTERM (what a launcher sends the others) do not.
func TestLauncherChildLines(t *testing.T) {
	for _, c := range []struct{ name, log, who, says string }{
		{"deepspeed", "[2024-03-05 10:11:12,345] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', '--local_rank=3'] exits with return code = -9\n",
			"local rank 3", "exit code -9 (SIGKILL)"},
		{"deepspeed without local rank", "[2024-03-05 10:11:12,345] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py'] exits with return code = 1\n",
			"the launcher's child", "exit code 1"},
		{"shell", "/var/spool/slurmd/job123/slurm_script: line 12: 45678 Killed                  python train.py\n", "pid 45678", "Killed"},
		{"shell segfault", "./run.sh: line 3: 12345 Segmentation fault      (core dumped) python train.py\n", "pid 12345", "Segmentation fault"},
		{"slurm oom", "slurmstepd: error: Detected 1 oom_kill event in StepId=12345.0. Some of the step tasks have been OOM Killed.\nsrun: error: node12: task 3: Out Of Memory\n",
			"rank 3 on node12", "ran out of host memory"},
	} {
		r := diagnoseBytes(t, "job.log", []byte(c.log), 0)
		if r.Status != diagnose.StatusFault || !strings.HasPrefix(r.Findings[0].Summary, c.who) || !strings.Contains(r.Findings[0].Summary, c.says) {
			t.Errorf("%s: want a fault of %s saying %q:\n%s", c.name, c.who, c.says, js(r))
		}
	}
	quietIn(t,
		"[2024-03-05 10:11:12,345] [INFO] [launch.py:351:main] Process 4242 exits with return code = 0\n",
		"[2024-03-05 10:11:12,345] [INFO] [launch.py:321:sigkill_handler] ['python', 'train.py', '--local_rank=1'] exits with return code = 0\n",
		"./run.sh: line 3: 12345 Terminated              python train.py\n",
		"/home/u/notes.txt: line 4: the job printed 12 Killed lines\n")
}

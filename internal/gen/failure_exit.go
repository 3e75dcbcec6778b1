package gen

import (
	"strconv"
	"strings"
	"time"
)

// Job identities the launchers print.
const (
	slurmJob = "4242"
	mpiJobID = "4242"
)

// writeExit writes the exit-* scenarios: the failing process prints its
// Python traceback and exits with code 1; its launcher says so; each peer's
// NCCL sees the connection close, aborts, and PyTorch takes the process
// down; the launcher ends the job naming the first process.
func (g *gen) writeExit() {
	gone := &g.topo.procs[g.fail.rank]
	g.writeFailPhase(50, func(p *proc) lines {
		if p != gone {
			return nil
		}
		var l lines
		l.text(traceback()...)
		l.text(`  File "/workspace/train.py", line 371, in train_step`, "    batch = next(data_iter)",
			`  File "/workspace/data.py", line 87, in __next__`, "    return self.collate([self.dataset[i] for i in idx])",
			"KeyError: 'input_ids'")
		return l
	})
	exitMs := g.clockMs
	g.setClock(g.clockMs + 300)
	switch g.fail.scenario {
	case "exit-slurm":
		g.raw("srun: error: " + hostName(gone.host) + ": task " + strconv.Itoa(gone.rank) + ": Exited with exit code 1")
	case "exit-mpirun":
		g.raw(mpiRule)
		g.raw("Primary job  terminated normally, but 1 process returned")
		g.raw("a non-zero exit code. Per user-direction, the job has been aborted.")
		g.raw(mpiRule)
	}
	g.setClock(g.clockMs + 1200)
	g.writeFailPhase(2500, func(p *proc) lines {
		if p == gone {
			return nil
		}
		var l lines
		g.addConsequence(&l, p, gone)
		return l
	})
	g.setClock(g.clockMs + 1000)
	switch g.fail.scenario {
	case "exit-slurm":
		g.slurmEnd(gone)
	case "exit-torchrun":
		g.torchrunEnd(gone, exitMs)
	case "exit-mpirun":
		g.raw(mpiRule)
		g.raw("mpirun detected that one or more processes exited with non-zero status, thus causing")
		g.raw("the job to be terminated. The first process to do so was:")
		g.raw("")
		g.raw("  Process name: [[" + mpiJobID + ",1]," + strconv.Itoa(gone.rank) + "]")
		g.raw("  Exit code:    1")
		g.raw(mpiRule)
	}
}

const mpiRule = "--------------------------------------------------------------------------"

// slurmEnd writes srun's and slurmstepd's lines once the other tasks died
// (SIGABRT from PyTorch's terminate).
func (g *gen) slurmEnd(gone *proc) {
	g.raw("srun: Job step aborted: Waiting up to 32 seconds for job step to finish.")
	t := time.UnixMilli(g.clockMs).UTC().Format("2006-01-02T15:04:05")
	g.raw("slurmstepd: error: *** STEP " + slurmJob + ".0 ON " + hostName(0) + " CANCELLED AT " + t + " ***")
	for h := 0; h < g.topo.nHosts; h++ {
		var tasks []int
		for i := range g.topo.procs {
			if p := &g.topo.procs[i]; p.host == h && p != gone {
				tasks = append(tasks, p.rank)
			}
		}
		if len(tasks) == 0 {
			continue
		}
		word := "tasks "
		if len(tasks) == 1 {
			word = "task "
		}
		g.raw("srun: error: " + hostName(h) + ": " + word + taskList(tasks) + ": Aborted (core dumped)")
	}
}

// taskList formats ascending task ids as Slurm does: "0-7", "8,10-15".
func taskList(ts []int) string {
	var parts []string
	for i := 0; i < len(ts); {
		j := i
		for j+1 < len(ts) && ts[j+1] == ts[j]+1 {
			j++
		}
		s := strconv.Itoa(ts[i])
		if j > i {
			s += "-" + strconv.Itoa(ts[j])
		}
		parts = append(parts, s)
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// torchrunEnd writes each node's elastic agent report: the failing node's
// names the exited rank as the root cause; the other nodes' name their own
// ranks, killed by SIGABRT later.
func (g *gen) torchrunEnd(gone *proc, exitMs int64) {
	g.torchrunBlock(gone.host, []*proc{gone}, exitMs)
	for h := 0; h < g.topo.nHosts; h++ {
		if h == gone.host {
			continue
		}
		var failed []*proc
		for i := range g.topo.procs {
			if p := &g.topo.procs[i]; p.host == h {
				failed = append(failed, p)
			}
		}
		g.setClock(g.clockMs + 150)
		g.torchrunBlock(h, failed, g.clockMs-1000)
	}
}

// torchrunBlock writes one agent's "failed (exitcode ...)" line, its
// traceback and the ChildFailedError summary; failed[0] is the root cause.
func (g *gen) torchrunBlock(host int, failed []*proc, atMs int64) {
	code := func(p *proc) string {
		if p.rank == g.fail.rank {
			return "1"
		}
		return "-6"
	}
	agentPid := strconv.Itoa(1000 + 37*host)
	head := "E" + time.UnixMilli(g.clockMs).UTC().Format("0102 15:04:05.000000") + " " + agentPid + " "
	first := failed[0]
	g.raw(head + "torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: " + code(first) + ") local_rank: " +
		strconv.Itoa(first.dev) + " (pid: " + strconv.Itoa(first.pid) + ") of binary: /usr/bin/python3")
	for _, s := range []string{"Traceback (most recent call last):",
		`  File "/usr/local/bin/torchrun", line 8, in <module>`, "    sys.exit(main())",
		`  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 355, in wrapper`,
		"    return f(*args, **kwargs)",
		`  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py", line 919, in main`, "    run(args)",
		`  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 269, in launch_agent`,
		"    raise ChildFailedError(",
		"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
		"============================================================",
		"train.py FAILED",
		"------------------------------------------------------------",
		"Failures:"} {
		g.raw(s)
	}
	if len(failed) == 1 {
		g.raw("  <NO_OTHER_FAILURES>")
	}
	for i, p := range failed[1:] {
		g.raw("[" + strconv.Itoa(i+1) + "]:")
		g.torchrunEntry(p, code(p), atMs)
	}
	g.raw("------------------------------------------------------------")
	g.raw("Root Cause (first observed failure):")
	g.raw("[0]:")
	g.torchrunEntry(first, code(first), atMs)
	g.raw("============================================================")
}

func (g *gen) torchrunEntry(p *proc, code string, atMs int64) {
	tb := "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"
	if code == "-6" {
		tb = "Signal 6 (SIGABRT) received by PID " + strconv.Itoa(p.pid)
	}
	g.raw("  time      : " + time.UnixMilli(atMs).UTC().Format("2006-01-02_15:04:05"))
	g.raw("  host      : " + hostName(p.host))
	g.raw("  rank      : " + strconv.Itoa(p.rank) + " (local_rank: " + strconv.Itoa(p.dev) + ")")
	g.raw("  exitcode  : " + code + " (pid: " + strconv.Itoa(p.pid) + ")")
	g.raw("  error_file: <N/A>")
	g.raw("  traceback : " + tb)
}

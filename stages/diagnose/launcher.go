package diagnose

import (
	"strconv"

	"github.com/nccllog/nccllog/parser"
)

// launcherFirst is the process the job's launcher names as the one that failed first, with
// the lines that say so: torchrun's root cause block, Open MPI's first process, or the first
// task exit srun reports. nil where the launcher names none.
func launcherFirst(e *Evidence, x *procIndex) (*proc, []*Item) {
	if p, its := rootCause(e, x); p != nil {
		return p, its
	}
	if p, its := agentFirst(e, x); p != nil {
		return p, its
	}
	for i := range e.Items {
		it := &e.Items[i]
		switch it.Ev {
		case evMPIExit:
			if p, its := mpiProcess(e, i, x); p != nil {
				return p, its
			}
		case evMPIProcess:
			if it.Name != "" && it.Rank >= 0 {
				// `mpirun noticed that process rank 3 with PID 1167 on node n exited on signal
				// 11 (...)`: the launcher's word on the first process a signal killed.
				return x.of(it), []*Item{it}
			}
		case evRayExit:
			if p := rayProc(it, x); p != nil {
				return p, []*Item{it}
			}
		case evTaskExit:
			if it.RankLast > it.Rank {
				// srun prints the tasks of a node that ended together as one set: none of
				// them is first, and so no line after it is either.
				return nil, nil
			}
			if it.Rank >= 0 || it.Host != "" {
				q := *it
				q.Pid = -1
				return x.of(&q), []*Item{it}
			}
		}
	}
	return nil, nil
}

// rootCause reads torchrun's first `Root Cause` block: the fields that follow its head.
func rootCause(e *Evidence, x *procIndex) (*proc, []*Item) {
	for i := range e.Items {
		if e.Items[i].Ev != evRootCause {
			continue
		}
		its := []*Item{&e.Items[i]}
		who := Item{Pid: -1, Rank: -1}
		for j := i + 1; j < len(e.Items) && e.Items[j].Ev == evRootField; j++ {
			f := &e.Items[j]
			its = append(its, f)
			// Any field may carry them: torchrun prints `exitcode : 1 (pid: 9238)`.
			if f.Host != "" && who.Host == "" {
				who.Host = f.Host
			}
			if f.Name == "rank" && f.Rank >= 0 {
				who.Rank = f.Rank
			}
			if f.Pid >= 0 && who.Pid < 0 {
				who.Pid = f.Pid
			}
		}
		// The rank names the process where NCCL's lines tie it to one: torchrun's host name
		// may be spelt otherwise than NCCL's.
		if p := x.byRank[who.Rank]; who.Rank >= 0 && p != nil {
			return p, its
		}
		if who.Rank >= 0 || who.Host != "" {
			p := x.of(&who)
			if p.rank < 0 { // known by host:pid alone until now: torchrun's rank is its global rank
				p.rank = who.Rank
			}
			return p, its
		}
	}
	return nil, nil
}

// mpiProcess reads the `Process name: [[j,1],R]` that follows Open MPI's exit notice at i.
func mpiProcess(e *Evidence, i int, x *procIndex) (*proc, []*Item) {
	its := []*Item{&e.Items[i]}
	for j := i + 1; j < len(e.Items) && j <= i+4; j++ {
		f := &e.Items[j]
		if f.Ev != evMPIProcess {
			continue
		}
		its = append(its, f)
		if f.Rank >= 0 {
			q := Item{Host: f.Host, Pid: f.Pid, Rank: f.Rank}
			return x.of(&q), its
		}
	}
	return nil, nil
}

// exitCode is the exit code the launcher's lines give, "" where none.
func exitCode(its []*Item) string {
	for _, it := range its {
		if it.Code >= 0 || (it.Code < -1) {
			return strconv.FormatInt(it.Code, 10)
		}
	}
	return ""
}

// exitSignalOf is the signal that ended the process: the one an agent line names, else the
// one a negative exit code stands for (torchrun's root cause block prints Python's -N for
// signal N), "" where neither.
func exitSignalOf(its []*Item) string {
	if sig := signalOf(its); sig != "" {
		return sig
	}
	for _, it := range its {
		if it.Code >= 0 || it.Code < -1 {
			return parser.ExitSignal(it.Code)
		}
	}
	return ""
}

// noticedSignal is the signal the launcher says killed the process (`signal 11 (Segmentation
// fault)`, from Open MPI's `mpirun noticed that process rank R ... exited on signal ...`), ""
// where its lines name none.
func noticedSignal(its []*Item) string {
	for _, it := range its {
		if it.Ev == evMPIProcess && it.Name != "" {
			return it.Name
		}
	}
	return ""
}

// launcherText says a launcher's line again where its item keeps no text of its own: a
// block's head, a torchrun field whose value was read into numbers, an srun or Open MPI exit.
func launcherText(it *Item) string {
	switch it.Ev {
	case evRootCause:
		return "Root Cause (first observed failure):"
	case evOtherFailures:
		return "torchrun's list of failures"
	case evRootField:
		switch {
		case it.Name == "rank" && it.Rank >= 0:
			return "rank: " + strconv.FormatInt(it.Rank, 10)
		case it.Name == "exitcode" && it.Pid >= 0:
			return "exitcode: " + strconv.FormatInt(it.Code, 10) + " (pid: " + strconv.FormatInt(it.Pid, 10) + ")"
		}
		return it.Name + ": " + it.Text
	case evTaskExit:
		s := "task " + strconv.FormatInt(it.Rank, 10)
		if it.RankLast > it.Rank {
			s = "tasks " + strconv.FormatInt(it.Rank, 10) + "-" + strconv.FormatInt(it.RankLast, 10)
		}
		if it.Host != "" {
			s = it.Host + ": " + s
		}
		if it.Name != "" {
			return s + ": " + it.Name
		}
		return s + ": Exited with exit code " + strconv.FormatInt(it.Code, 10)
	case evCancelled:
		return "step cancelled on " + it.Host
	case evMPIExit:
		return "mpirun: a process exited with non-zero status"
	case evMPIProcess:
		if it.Rank >= 0 {
			return "Process name: rank " + strconv.FormatInt(it.Rank, 10)
		}
		return "Exit code: " + strconv.FormatInt(it.Code, 10)
	}
	return it.Name
}

// slurmOOM reports whether srun names the task's end Out Of Memory (`srun: error: node12: task
// 3: Out Of Memory`): the step's cgroup ran out of host memory and its OOM killer ended it.
func slurmOOM(its []*Item) bool {
	for _, it := range its {
		if it.Ev == evTaskExit && it.Name == "Out Of Memory" {
			return true
		}
	}
	return false
}

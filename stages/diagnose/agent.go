package diagnose

import "strconv"

// agentFirst reads the first line of torchrun's elastic agent on a failed child: the
// process it names (the one known by that pid where the NCCL lines name exactly one, else
// the child by its local rank and pid) and the line. nil where the log holds none.
func agentFirst(e *Evidence, x *procIndex) (*proc, []*Item) {
	for i := range e.Items {
		it := &e.Items[i]
		if it.Ev != evAgentExit {
			continue
		}
		if p := x.byPid(it.Pid); p != nil {
			return p, []*Item{it}
		}
		return x.child(it), []*Item{it}
	}
	return nil, nil
}

// withAgent adds to items, where torchrun's root cause block (litems, which names the global
// rank and host and is preferred) names the first fault, the agent's line on the same child,
// as evidence of the same exit rather than a second finding: its pid is the block's, or the
// block prints none. It goes last, so that the evidence cited first stays the block's and the
// process's own.
func withAgent(e *Evidence, litems, items []*Item) []*Item {
	if len(litems) == 0 || litems[0].Ev != evRootCause {
		return items
	}
	pid := int64(-1)
	for _, it := range litems {
		if it.Pid >= 0 {
			pid = it.Pid
			break
		}
	}
	for i := range e.Items {
		if it := &e.Items[i]; it.Ev == evAgentExit && (pid < 0 || it.Pid == pid) {
			return append(items, it)
		}
	}
	return items
}

// byPid is the one process the NCCL lines know by pid on some host, nil where none or
// several (pids repeat across nodes). The log's one process (Evidence.Lone) counts where no
// item named it.
func (x *procIndex) byPid(pid int64) *proc {
	var found *proc
	for _, p := range x.order {
		if p.pid == pid && p.host != "" {
			if found != nil {
				return nil
			}
			found = p
		}
	}
	if found == nil && x.lone != nil && x.lone.Pid == pid && x.lone.Host != "" {
		return x.loneProc()
	}
	return found
}

// agentText says the agent's line again from what was read of it.
func agentText(it *Item) string {
	return "failed (exitcode: " + strconv.FormatInt(it.Code, 10) + ") local_rank: " + strconv.FormatInt(it.Local, 10) +
		" (pid: " + strconv.FormatInt(it.Pid, 10) + ")"
}

// signalOf is the signal a launcher's agent line names for its exit code, "" where none.
func signalOf(its []*Item) string {
	for _, it := range its {
		if it.Ev == evAgentExit && it.Name != "" {
			return it.Name
		}
	}
	return ""
}

// child is the launcher's child an agent line names by its local rank and pid (torchrun), or
// by its local rank alone (DeepSpeed's launcher, which prints no pid). The agent's line names
// no host; where the log shows processes on one host only, the child is on it (the agent
// runs beside its children).
func (x *procIndex) child(it *Item) *proc {
	if it.Pid >= 0 {
		p := x.get(x.oneHost(), it.Pid)
		p.label = "local rank " + strconv.FormatInt(it.Local, 10) + " (pid " + strconv.FormatInt(it.Pid, 10) + ")"
		return p
	}
	label := "the launcher's child"
	if it.Local >= 0 {
		label = "local rank " + strconv.FormatInt(it.Local, 10)
	}
	return &proc{pid: -1, rank: -1, gpu: -1, label: label}
}

// oneHost is the host of every process the log names by host and pid, "" where it names
// none or several.
func (x *procIndex) oneHost() string {
	if len(x.hostPid) != 1 {
		return ""
	}
	for h := range x.hostPid {
		return h
	}
	return ""
}

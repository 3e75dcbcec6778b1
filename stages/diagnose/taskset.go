package diagnose

import (
	"slices"
	"strconv"
)

// taskSet is the finding where the launcher's exits are the only evidence and srun named no
// task first: the first line names a range (`tasks 2-7: Exited with exit code 1`), which is a
// set of tasks that ended on one node in no order srun reports. The finding says which tasks
// on how many nodes exited, blaming none of them; nil where the launcher named a task first or
// no task exit is a range.
func (b *builder) taskSet(lp *proc) *cand {
	c := b.conseq[KindProcessExit]
	if lp != nil || c == nil || !firstTaskRange(c.items) {
		return nil
	}
	delete(b.conseq, KindProcessExit)
	c.fault, c.shared = true, true
	c.summary = taskSetSummary(c)
	return c
}

// firstTaskRange reports whether the first task exit among its is a range of tasks.
func firstTaskRange(its []*Item) bool {
	for _, it := range its {
		if it.Ev == evTaskExit {
			return it.RankLast > it.Rank
		}
	}
	return false
}

// taskSetSummary says the tasks, their nodes and their exit code (where they share one).
func taskSetSummary(c *cand) string {
	s := "tasks " + rankList(sortedRanks(c.ranks))
	if hs := hostsOf(c.procs); len(hs) > 0 {
		s += " on " + plural(len(hs), "node", "nodes")
	}
	s += " exited"
	if code, ok := sharedCode(c.items); ok {
		s += " with exit code " + strconv.FormatInt(code, 10)
	}
	return s + ", as the launcher reports; srun names no task first, and the log holds no other error that says which failed first."
}

// sharedCode is the exit code every task exit among its gives, false where they differ or
// give none.
func sharedCode(its []*Item) (int64, bool) {
	code, ok := int64(-1), false
	for _, it := range its {
		if it.Ev != evTaskExit {
			continue
		}
		if it.Code < 0 || (ok && it.Code != code) {
			return 0, false
		}
		code, ok = it.Code, true
	}
	return code, ok
}

// unnamedExit is the finding where the launcher's exit notice is the only evidence and names
// no process: Open MPI's `Primary job terminated normally, but 1 process returned a non-zero
// exit code` without the `Process name:` block that follows it (a paste that stops there).
// The job failed; which process, the log does not say. nil where the launcher named one or
// printed no such notice.
func (b *builder) unnamedExit(lp *proc) *cand {
	c := b.conseq[KindProcessExit]
	if lp != nil || c == nil || !slices.ContainsFunc(c.items, func(it *Item) bool { return it.Ev == evMPIExit || spawnWrapper(it) }) {
		return nil
	}
	delete(b.conseq, KindProcessExit)
	c.fault = true
	c.summary = "A process exited with a non-zero code, as mpirun reports; it does not say which, and the log holds no other error that says which failed first."
	if !slices.ContainsFunc(c.items, func(it *Item) bool { return it.Ev == evMPIExit }) {
		c.summary = spawnSummary // spawn.go
	}
	return c
}

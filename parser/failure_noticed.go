package parser

import "strings"

// noticedExit reads Open MPI's launcher on a process a signal killed (gFailNoticed): the
// rank, the PID (Open MPI prints 0 where it never learnt it: -1), the node and the signal.
func noticedExit(f Failure, n *gFailNoticed) (Failure, bool) {
	rank, err1 := parseDec(n.Rank)
	pid, err2 := parseDec(n.Pid)
	sig, err3 := parseDec(strings.TrimSuffix(n.Sig, "."))
	if err1 != nil || err2 != nil || err3 != nil || rank < 0 || sig <= 0 {
		return f, false
	}
	f.Event, f.Task, f.TaskLast, f.Host = FailureMPIProcess, rank, rank, strings.Join(n.Host, "")
	if pid > 0 {
		f.Pid = pid
	}
	f.Signal = "signal " + strings.TrimSuffix(n.Sig, ".")
	if n.Name != nil {
		f.Signal += " (" + trimLexSp(strings.Join(n.Name, "")) + ")"
	}
	f.Text = failureText(n.Tool + " noticed that process rank " + n.Rank + " with PID " + n.Pid +
		" on node " + f.Host + " exited on " + f.Signal)
	return f, true
}

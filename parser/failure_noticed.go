package parser

import "strings"

// rareFailWords are the words a line of gRareFailLine holds: only a line with one of them is
// given to its grammar.
var rareFailWords = [...]string{" noticed that ", "OP_REQUIRES failed at"}

// parseRareFail reads text (a line, or its rest after a bare time) as a failure line of
// gRareFailLine where it holds one of rareFailWords.
func (g *Grammar) parseRareFail(text string) (Line, bool) {
	if !strings.Contains(text, rareFailWords[0]) && !strings.Contains(text, rareFailWords[1]) {
		return Line{}, false
	}
	t, err := g.rareFail().ParseString("", text)
	if err != nil {
		return Line{}, false
	}
	var f Failure
	var ok bool
	if t.Noticed != nil {
		f, ok = noticedExit(noFailure, t.Noticed)
	} else {
		f, ok = opKernelFailure(noFailure, t.OpKernel)
	}
	if !ok {
		return Line{}, false
	}
	return Line{Kind: KindFailure, Rank: prefixRank(t.Prefix), Fail: &f}, true
}

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

// OpRequires opens the Exception of TensorFlow's `OP_REQUIRES failed at <file>:<line>` line.
const OpRequires = "OP_REQUIRES"

// opKernelFailure reads TensorFlow's `OP_REQUIRES failed at <file>:<line> : <code>: <msg>`
// where the op is NCCL's (TF's nccl_*.cc kernels) or the message says NCCL, and the message
// opens with an ncclResult's words (ncclGetErrorString: `unhandled system error`): the
// process's own NCCL error. Other ops' failures are no NCCL failure evidence.
func opKernelFailure(f Failure, o *gFailOpKernel) (Failure, bool) {
	msg, file := trimLexSp(strings.Join(o.Msg, "")), strings.Join(o.File, "")
	words, named := strings.CutPrefix(msg, "NCCL")
	if !named && !strings.HasPrefix(strings.ToLower(file), "nccl") {
		return f, false
	}
	words = strings.TrimLeft(words, ": ")
	words, _ = strings.CutPrefix(words, "error: ")
	for r := ResultUnhandledCuda; r < numResults; r++ {
		if strings.HasPrefix(words, resultWords[r]) {
			f.Event, f.Exception, f.Result = FailureException, OpRequires+" failed at "+file, r
			f.Text = failureText(o.Code + ": " + msg)
			return f, true
		}
	}
	return f, false
}

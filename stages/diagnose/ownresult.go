package diagnose

import (
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// ownResultKind is the kind of a line on which a process reports the ncclResult its own
// NCCL call returned, rather than a framework repeating NCCL's WARN: TensorFlow's
// `OP_REQUIRES failed at nccl_ops.cc:104 : UNKNOWN: unhandled cuda error`, and a C++
// `what():  NCCL failure: unhandled cuda error in <file> at line: N rank: R` (the NCCLCHECK
// of MPI examples and benchmarks), and nccl-tests' `Test NCCL failure <file>:<line> '...'`. Its result names the kind (unhandled cuda error: a
// cuda-error; unhandled system error: a system-error); a remote error is no origin. ok is
// false for any other line.
func ownResultKind(it *Item) (k Kind, origin, ok bool) {
	if it.Ev != evException && it.Ev != evTerminate || it.Code <= 0 || it.Code >= int64(numResultKinds) {
		return 0, false, false
	}
	if !strings.HasPrefix(it.Name, parser.OpRequires) && !strings.HasPrefix(it.Text, ncclFailureHead) && !isTestResult(it) {
		return 0, false, false
	}
	switch r := parser.NCCLResult(it.Code); r {
	case parser.ResultSystem:
		return KindSystemError, true, true
	case parser.ResultRemote:
		return KindRemoteError, false, true
	default:
		return resultKinds[r], true, true
	}
}

// ncclFailureHead opens the what() of an NCCLCHECK that throws (`NCCL failure: <result>
// in <file> at line: N rank: R`).
const ncclFailureHead = "NCCL failure"

// soleProc is the process of an exception, a signal or a terminate that names none
// (TensorFlow's `OP_REQUIRES failed at ...`, a `CUDA error: ...` line, a Python exception
// without a launcher label, `Fatal Python error: Segmentation fault`): the log's one process
// where its NCCL lines show one (a single TensorFlow process drives every GPU of its node; a
// user pastes one process's output). Any other line keeps p.
func soleProc(x *procIndex, it *Item, p *proc) *proc {
	if p != nil || it.Ev != evException && it.Ev != evSignal && it.Ev != evTerminate || it.Rank >= 0 || it.Under != 0 {
		return p
	}
	if len(x.order) == 1 {
		return x.order[0]
	}
	if len(x.order) == 0 {
		if q := x.loneProc(); q != nil {
			return q
		}
	}
	return p
}

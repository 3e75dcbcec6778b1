package diagnose

import (
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// numberedHead opens the message of PyTorch's older NCCL exception, which gives the
// ncclResult by its number: `RuntimeError: NCCL Error 2: unhandled system error (run with
// NCCL_DEBUG=INFO for details)`.
const numberedHead = "NCCL Error "

// numberedResult is the ncclResult such a message gives (1-7), 0 where it gives none.
func numberedResult(text string) int64 {
	i := strings.Index(text, numberedHead)
	if i < 0 {
		return 0
	}
	v, n := decimalAt(text[i+len(numberedHead):])
	if n == 0 || v <= 0 || v >= int64(numResultKinds) {
		return 0
	}
	return v
}

// ncclCallFailed is where the words after an NCCL call that a framework names as failed
// begin (`ncclCommInitRank failed: unhandled system error`, TensorFlow's and Horovod's
// form), -1 where text names none.
func ncclCallFailed(text string) int {
	const failed = " failed"
	for off := 0; ; {
		i := strings.Index(text[off:], "nccl")
		if i < 0 {
			return -1
		}
		off += i + len("nccl")
		j := off
		for j < len(text) && (text[j] >= 'A' && text[j] <= 'Z' || text[j] >= 'a' && text[j] <= 'z') {
			j++
		}
		if j > off && text[off] >= 'A' && text[off] <= 'Z' && strings.HasPrefix(text[j:], failed) {
			return j + len(failed)
		}
	}
}

// frameworkResult is the ncclResult a framework's NCCL exception gives where the parser
// reads none: by its number (`NCCL Error 2: ...`), or by NCCL's words after a failed call
// (`ncclCommInitRank failed: unhandled system error`, read as the parser reads them after
// `NCCL error`); 0 where it gives none.
func frameworkResult(text string) int64 {
	if r := numberedResult(text); r > 0 {
		return r
	}
	if i := ncclCallFailed(text); i >= 0 {
		return int64(parser.ResultIn("NCCL error" + text[i:]))
	}
	return 0
}

package diagnose

import "strings"

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

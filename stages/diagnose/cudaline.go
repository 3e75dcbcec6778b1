package diagnose

import (
	"bytes"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// Programs that call NCCL from C++ check each call themselves and print the CUDA or NCCL
// error string on a line of its own as they abort, the way ggml's CUDA backend does:
//
//	CUDA error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)
//	  current device: 0, in function ggml_backend_cuda_comm_allreduce_tensor at .../ggml-cuda.cu:1237
//	  ncclGroupEnd()
//
// Such a line is the process's last word, read as an exception (PyTorch's
// `RuntimeError: CUDA error: ...` is one already).

// cudaErrorHead starts the line, after the launcher's prefixes.
var cudaErrorHead = []byte("CUDA error: ")

// cudaHeadWithin bounds where the head may start: after a launcher's label (`[rank3]: `,
// `[1,3]<stdout>:`), a time (`2025-11-24T03:20:21.001125857Z `) or both.
const cudaHeadWithin = 48

// addCudaLine keeps other text that is a `CUDA error: ...` line.
func (p *Part) addCudaLine(l *stages.Line) {
	msg := parser.Unprefixed(l.Text)
	if !bytes.HasPrefix(msg, cudaErrorHead) || len(bytes.TrimSpace(msg[len(cudaErrorHead):])) == 0 {
		return
	}
	it := newItem(evException, l.N, l.P)
	it.Text = clip(msg)
	p.keep(it)
}

// cudaLead reports whether a line of other text that starts with c may be a `CUDA error:`
// line: it starts with the head, or with what may be a prefix (a bracket, a digit or a
// blank, or a launcher's label the parser found). Most other text fails this test on its
// first byte, inline, where every line takes it.
func cudaLead(t []byte, labelled bool) bool {
	if len(t) < len(cudaErrorHead) {
		return false
	}
	c := t[0]
	return c == 'C' || c == '[' || c == ' ' || c >= '0' && c <= '9' || labelled
}

// mayBeCudaLine reports whether t, which cudaLead let through, holds the head at its start
// or near it: it looks for the head's rarer letter U, and prefixes are read only where the
// head is there.
func mayBeCudaLine(t []byte) bool {
	if t[0] == 'C' {
		return bytes.HasPrefix(t, cudaErrorHead)
	}
	w := t[:min(len(t), cudaHeadWithin+len(cudaErrorHead))]
	for {
		i := bytes.IndexByte(w, 'U')
		if i < 0 {
			return false
		}
		if i > 0 && w[i-1] == 'C' && bytes.HasPrefix(w[i-1:], cudaErrorHead) {
			return true
		}
		w = w[i+1:]
	}
}

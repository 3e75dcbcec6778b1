package ncclwarn

import (
	"bytes"
	"strings"
)

// Template is what a WARN's message says with what differs between processes that met the same
// cause masked: a peer's address and port (a word holding `<`), a path's last element
// (`/dev/shm/nccl-KWfVyt`), and every number but the codes that tell causes apart (a
// completion's `status=12` or `error 4`, `vendor err 81`, `retcode 6`, `res=3`). Two processes
// whose WARNs have one template met the same kind of error: the same IB completion status, the
// same failed call, the same invalid usage.
func Template(msg []byte) string {
	var b strings.Builder
	code := false // the word before was a code's name
	for i, w := range bytes.Fields(msg[:min(len(msg), maxTemplate)]) {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case bytes.IndexByte(w, '<') >= 0:
			b.WriteString("<peer>")
		case w[0] == '/' && bytes.LastIndexByte(w, '/') > 0:
			b.Write(w[:bytes.LastIndexByte(w, '/')+1])
			b.WriteByte('*')
		case code:
			b.Write(w)
		case bytes.HasPrefix(bytes.TrimLeft(w, "(["), []byte("0x")):
			writeHex(&b, w) // a pointer, a communicator's id
		default:
			writeMasked(&b, w)
		}
		code = isCodeName(w)
	}
	return b.String()
}

// maxTemplate bounds the text a template reads: NCCL's lines are at most 1 KiB before 2.29.
const maxTemplate = 1024

// isCodeName reports whether w names a code the next word gives, or gives one itself after
// `=` (`status=12`, which writeMasked keeps).
func isCodeName(w []byte) bool {
	w = bytes.TrimRight(w, ":,")
	for _, n := range codeNames {
		if string(w) == n {
			return true
		}
	}
	return false
}

var codeNames = [...]string{"status", "error", "err", "retcode", "res", "errno", "code"}

// writeMasked writes w with each run of digits as N, but the value of a code given as
// `status=12` or `res=3`.
func writeMasked(b *strings.Builder, w []byte) {
	if i := bytes.IndexByte(w, '='); i > 0 && isCodeName(w[:i]) {
		b.Write(w)
		return
	}
	for i := 0; i < len(w); {
		if w[i] < '0' || w[i] > '9' {
			b.WriteByte(w[i])
			i++
			continue
		}
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
		}
		b.WriteByte('N')
	}
}

// writeHex writes w, a hex number maybe in brackets (`0x7f3a`, `(0x732d78661238):`), as 0xN
// with its brackets and punctuation: NET/IB's async events name the queue pair's pointer.
func writeHex(b *strings.Builder, w []byte) {
	lead := len(w) - len(bytes.TrimLeft(w, "(["))
	b.Write(w[:lead])
	b.WriteString("0xN")
	i := lead + 2
	for i < len(w) && isHexDigit(w[i]) {
		i++
	}
	b.Write(w[i:])
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

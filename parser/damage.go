package parser

import "bytes"

// damageReason classifies the text of a line in which no envelope was found: output that is
// recognisably NCCL's but damaged (its head eaten by interleaving, a level garbled, the tail
// of a cut collective line) is KindMalformed with a reason; anything else is KindOther.
func damageReason(rest []byte) (Kind, string) {
	switch {
	case bytes.Contains(rest, []byte("opCount ")):
		return KindMalformed, "collective line without a host:pid:tid [dev] envelope"
	case bytes.Contains(rest, []byte("[nranks=")):
		return KindMalformed, "tail of a collective line cut off by interleaved output"
	case containsLevel(rest):
		return KindMalformed, reasonNoEnvelope
	case garbledLevel(rest):
		return KindMalformed, "NCCL envelope with an unreadable level"
	}
	return KindOther, ""
}

// reasonNoEnvelope is the reason of a line that holds an NCCL level but no envelope that
// reads: neither `host:pid:tid [dev]` nor the host-only `host [dev]` (gHostLine).
const reasonNoEnvelope = "NCCL output without a host:pid:tid [dev] envelope"

// garbledLevel reports whether b holds `] NCCL ` followed by no level: an envelope whose
// level was garbled. PyTorch's `[PG 0 Rank 3] NCCL error: ...` (an exception's message, a
// failure line) is no envelope, nor is any other text after its process-group head (2.0-2.3's
// `[Rank 0] NCCL watchdog thread terminated with exception: ...`).
func garbledLevel(b []byte) bool {
	const head = "] NCCL "
	for {
		i := bytes.Index(b, []byte(head))
		if i < 0 {
			return false
		}
		pg := pgHead(b[:i])
		b = b[i+len(head):]
		if !pg && !bytes.HasPrefix(b, []byte("error")) {
			return true
		}
	}
}

// maxPGHead bounds PyTorch's process-group head: its longest, `[PG ID 0 PG GUID
// 0(default_pg) Rank 3`, is 38 bytes.
const maxPGHead = 64

// pgHead reports whether b ends with PyTorch's process-group head without its `]`: `[Rank 0`,
// `[PG 0 Rank 3`, `[PG ID 0 PG GUID 0(default_pg) Rank 3`.
func pgHead(b []byte) bool {
	w := b[max(0, len(b)-maxPGHead):]
	j := bytes.LastIndexByte(w, '[')
	if j < 0 {
		return false
	}
	h := w[j:]
	k := bytes.LastIndex(h, []byte("Rank "))
	if !bytes.HasPrefix(h, []byte("[Rank ")) && !bytes.HasPrefix(h, []byte("[PG ")) || k < 0 || k+len("Rank ") == len(h) {
		return false
	}
	for _, c := range h[k+len("Rank "):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

var levelWords = [...][]byte{
	[]byte("NCCL INFO"), []byte("NCCL WARN"), []byte("NCCL TRACE"), []byte("NCCL ABORT"), []byte("NCCL CALL"),
}

func containsLevel(b []byte) bool {
	if !bytes.Contains(b, []byte("NCCL ")) {
		return false
	}
	for _, w := range levelWords {
		if bytes.Contains(b, w) {
			return true
		}
	}
	return false
}

// trimCR drops the line's trailing carriage return, if any (CRLF logs).
func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

package diagnose

import "strings"

// PyTorch's gloo backend, which a job runs beside NCCL for its CPU collectives (a barrier, an
// object's broadcast), raises on a peer that went away with the peer's address in brackets:
//
//	RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.64.77.53]:34971
//
// It is NCCL's `Connection closed by remote peer` in gloo's words: the process that raised it
// lost its peer, which went away first.

// glooPeerWords precede the address gloo names.
const glooPeerWords = "] Connection closed by peer ["

// glooPeer is the address gloo's message names as the peer that closed the connection, ""
// where msg is no such message.
func glooPeer(msg string) string {
	i := strings.Index(msg, glooPeerWords)
	if i < 0 {
		return ""
	}
	rest := msg[i+len(glooPeerWords):]
	j := strings.IndexByte(rest, ']')
	if j <= 0 || strings.ContainsAny(rest[:j], " \t") {
		return ""
	}
	return rest[:j]
}

package parser

import "bytes"

// agentHeads open torchrun's agent line on a failed child (gFailAgent) by its head: Python
// logging's `ERROR:torch...`, the bracketed form's `torch.distributed...` after its time, and
// `failed (` where no head is printed; failurePairs holds their first two bytes. A glog
// head's text opens with its thread id, a digit and white space, which failurePairs holds
// already.
var agentHeads = []string{"ER", "to", "fa"}

// agentWord is in every agent line gFailAgent reads ('exitcode' then ':').
var agentWord = []byte("exitcode:")

// mayBeAgentExit reports whether h, a line's text after its indent, may be torchrun's agent
// line on a failed child; false for nearly all other text on its first byte.
func mayBeAgentExit(h []byte) bool {
	if c := h[0]; c != 'E' && c != 't' && c != 'f' && !isDigit(c) {
		return false
	}
	return bytes.Contains(h, agentWord)
}

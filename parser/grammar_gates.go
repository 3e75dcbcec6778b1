package parser

import "strings"

// The gates below (and the scanner's mayHoldEnvelope, which parseNCCL asks: every envelope
// holds `NCCL`, white space and a level word) let the grammar pass over a line one of its parsers cannot read without
// running that parser: each asks for a literal the parser's rules cannot match without, so
// a line it turns away is one the parser fails on. Parser runs the grammar on the first
// lines of every shape, and a line without an envelope went through the envelope, progress
// and NCCL 2.2 grammars before the one that reads it; on a job's log (tracebacks, launcher
// lines) those runs were half the parse's instructions.

// mayBeProgress reports whether text may read as a gProgressLine: each of its messages opens
// with the token `Training` (gNeMo), `iteration` (gMega) or `step` (gTitan). Text that
// blankSGR changed holds them too: it only turns escape sequences into a blank.
func mayBeProgress(text string) bool {
	return strings.Contains(text, "step") || strings.Contains(text, "iteration") || strings.Contains(text, "Training")
}

// mayHoldOldEnvelope reports whether text may read as a gOldLine: its envelope's device
// follows the tokens ` ` and `[`.
func mayHoldOldEnvelope(text string) bool { return strings.Contains(text, " [") }

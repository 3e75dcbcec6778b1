// Package diagnose is the diagnose family: it gathers a job's failure evidence (launcher
// exits, a process's last words, NCCL's origin and follow-on WARNs, communicator aborts and
// unfinished inits, PyTorch watchdog timeouts, NCCL RAS reports) per process, and joins it
// with the ranks family's verdicts (a rank behind, a mismatch) into a Report: what failed
// first, where, and which errors only follow from it.
//
// The Partial keeps evidence items in input order, at most maxPerKey of one kind per
// process, so that what it keeps does not depend on how the input was chunked; the Report is
// built once, from the whole Set.
package diagnose

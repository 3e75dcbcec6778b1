// Package ranks is the call-sequence family: every process's calls folded into each
// communicator's rank sequences (ranks, comms), which nodes and ranks the log covers
// (coverage), where the ranks stopped (hang), where their calls disagree (check), and the
// PyTorch watchdog's process groups (pg).
package ranks

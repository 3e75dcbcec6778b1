// Package strag is the stragglers family: which rank's calls arrive late, from the times on
// NCCL's call lines. Per communicator and call position (opCount), each rank's time is
// compared with the median of the ranks of its own host (one clock, whatever the hosts'
// clocks say of each other); per rank it keeps how often it came last and its lags, per
// step. A fixed sample of call positions (the ones whose key hashes lowest, the same whatever
// the chunking) bounds its memory.
package strag

// Package diff compares two runs through their families' Reports (info, agg, steps,
// diagnose) and lists what changed, most consequential first.
//
// It lives in internal/ rather than stages/: it is no analysis family (no Stage, no
// Partial, nothing in the registry); it reads the exported Reports of two finished runs,
// as a printer would, and computes the one thing printers may not: the comparison. The
// CLI (cmd/nccllog diff) runs both sides and lays the Diff out.
//
// Order: the sections in Section order (identity, findings, environment, network, tuning,
// init, collectives, steps), what decides whether the runs are comparable at all first and
// measurements last; within a section, the checks in the order each section's function
// makes them, counts and names before values. Counts (calls, bytes, processes) differ
// when they differ at all; measured times (init timings, step time, TFLOP/s) only when
// they move by more than Tolerance, so that two runs of one job do not differ by noise.
package diff

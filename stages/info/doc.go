// Package info is the set-up family: versions, processes, GPUs, NICs and transports,
// communicators, tuning and timings, and WARN chains folded to their origin (info), with the
// outliers among processes that should agree.
package info

// Package agg is the call-volume family: the (op, count, datatype) table, per-op statistics
// and the message-size histogram (agg, stats, hist), all from one Agg that merges exactly.
package agg

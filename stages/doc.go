// Package stages holds the arithmetic of nccllog: the step splitter and the analyses of
// collective calls (per-op stats, size histogram, dtype aggregation, step times, line counts).
//
// Every result is a plain value with a Merge, so partial results from chunks, files or
// machines combine into exactly the result of one pass over everything.
package stages

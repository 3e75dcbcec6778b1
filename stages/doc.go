// Package stages is the core of nccllog's analyses: the Stage and Partial interfaces, the
// Registry and Plan, the run's Config, and the step rule.
//
// Each analysis family is a package under stages/ (agg, steps, stream, ranks, info) whose
// Stages are registered by name in stages/all; a command asks for stages by name and gets a
// Plan. A Stage's Partials take lines (Add), learn their step (Settle) and their file and
// absolute line numbers (Anchor), and Merge with the Partial of the lines that follow. Chunk
// cuts a chunk's lines at the step markers, Merger settles the stretches that span chunks,
// and Read decides how much of a chunk is read: the step rule has this one owner. A Result
// holds every stage's Partial over one or more inputs and has one Merge, so chunks, files
// and machines (through Encode and Decode) combine into exactly the result of one pass over
// everything. Lines (the accounting of every line) and Call (what the calls family writes
// and the ranks family folds) live here because every family and the Out see them.
package stages

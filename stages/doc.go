// Package stages holds the arithmetic of nccllog: the step splitter and the analyses.
//
// Each analysis is a Stage, in a file of its own, registered by name in a Registry; a command
// asks for stages by name and gets a Plan. A Stage's Partials take lines (Add), learn their
// step (Settle) and their file and absolute line numbers (Anchor), and Merge with the Partial
// of the lines that follow. Chunk cuts a chunk's lines at the step markers, Merger settles
// the stretches that span chunks, and Read decides how much of a chunk is read: the step rule
// has this one owner. A Result holds every stage's Partial over one or more inputs and has
// one Merge, so chunks, files and machines (through Encode and Decode) combine into exactly
// the result of one pass over everything.
package stages

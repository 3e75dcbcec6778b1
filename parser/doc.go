// Package parser knows the text of NCCL and RCCL debug logs: it turns one line into a typed
// record (collective call, communicator event, training progress, other NCCL output or not NCCL).
//
// The participle grammar in grammar*.go is the parser of record. A hand-written scanner
// (scan*.go) reads the hot line shapes far faster; Parser checks it against the grammar on the
// first line of every shape it meets and falls back to the grammar wherever the two disagree.
package parser

// Package pipeline knows goroutines and channels: it reads an input in chunks cut at line
// ends, parses and analyses the chunks on every core, and merges them back in input order.
//
// Cancellation flows through a context.Context and the first error stops every goroutine.
package pipeline

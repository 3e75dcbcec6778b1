//go:build !race

package pipeline

// raceEnabled: the race detector slows the parser tenfold, so the slowest tests run a
// sample of their cases.
const raceEnabled = false

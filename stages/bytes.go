package stages

import (
	"math"
)

// MaxBytes is where byte counts and totals stop: they saturate at 2^63-1 (8 EiB) rather than
// wrap negative, so a value of MaxBytes means "at least this much". Counts read from a log go
// up to 2^63-1, so count × element size and sums of them can pass it.
const MaxBytes = math.MaxInt64

// addBytes returns a+b for byte counts a, b >= 0, at most MaxBytes.
func AddBytes(a, b int64) int64 {
	if a > MaxBytes-b {
		return MaxBytes
	}
	return a + b
}

// mulBytes returns a×b, at most MaxBytes where both are positive.
func MulBytes(a, b int64) int64 {
	if a > 0 && b > 0 && a > MaxBytes/b {
		return MaxBytes
	}
	return a * b
}

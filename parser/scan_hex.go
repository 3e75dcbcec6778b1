package parser

import (
	"encoding/binary"
	"math/bits"
)

// Pointers are most often twelve hexadecimal digits wide (a user-space or CUDA device address
// on x86-64, printed by %p), and reading them a byte at a time is the largest cost of a
// collective line. hex12 reads such a pointer eight and four bytes at a time.

const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// hex12 reads twelve digits 0-9 or a-f at b[i:] followed by a byte that is no hexadecimal
// digit, the value hex reads there. ok is false for any other text, which hex then reads.
func hex12(b []byte, i int) (v uint64, ok bool) {
	if i+13 > len(b) {
		return 0, false
	}
	w := b[i : i+13 : i+13]
	x0 := binary.LittleEndian.Uint64(w)
	// Digits 8-11, then four '0' that add four zero nibbles: sixteen digits in all.
	x1 := uint64(binary.LittleEndian.Uint32(w[8:])) | 0x3030303000000000
	if lowerHexBytes(x0)&lowerHexBytes(x1) != swarHigh || hexVal[w[12]] != 0xff {
		return 0, false
	}
	return (packNibbles(x0)<<32 | packNibbles(x1)) >> 16, true
}

// lowerHexBytes sets the high bit of each byte of x that is '0'-'9' or 'a'-'f', and clears
// every other bit. (Bytes are compared by adding to their low seven bits, which cannot carry
// into the next byte.)
func lowerHexBytes(x uint64) uint64 {
	y := x &^ swarHigh
	digit := (y + (0x80-'0')*swarOnes) &^ (y + (0x7f-'9')*swarOnes)
	lower := (y + (0x80-'a')*swarOnes) &^ (y + (0x7f-'f')*swarOnes)
	return (digit | lower) &^ x & swarHigh
}

// packNibbles returns the value of eight hexadecimal digits 0-9 or a-f, the first of them in
// the lowest byte of x.
func packNibbles(x uint64) uint64 {
	n := x&(0x0f*swarOnes) + (x>>6&swarOnes)*9 // each byte's digit value
	n = bits.ReverseBytes64(n)                 // the last digit in the lowest byte
	n = (n | n>>4) & 0x00ff00ff00ff00ff
	n = (n | n>>8) & 0x0000ffff0000ffff
	return (n | n>>16) & 0xffffffff
}

package parser

// Pointers are most often twelve hexadecimal digits wide (a user-space or CUDA device address
// on x86-64, printed by %p), and the byte loop of hex, which tests for the end of the digits
// after each one, was the largest cost of a collective line. hex12 reads the twelve digits
// without a loop.

// hex12 reads twelve hexadecimal digits at b[i:] followed by a byte that is no digit: the
// value hex reads there. ok is false for any other text, which hex then reads.
func hex12(b []byte, i int) (v uint64, ok bool) {
	if i < 0 || i+13 > len(b) {
		return 0, false
	}
	w := b[i : i+13 : i+13]
	d0, d1, d2, d3 := hexVal[w[0]], hexVal[w[1]], hexVal[w[2]], hexVal[w[3]]
	d4, d5, d6, d7 := hexVal[w[4]], hexVal[w[5]], hexVal[w[6]], hexVal[w[7]]
	d8, d9, d10, d11 := hexVal[w[8]], hexVal[w[9]], hexVal[w[10]], hexVal[w[11]]
	// A digit's value is below 16 and hexVal's mark for any other byte is 0xff.
	if (d0|d1|d2|d3|d4|d5|d6|d7|d8|d9|d10|d11)&0xf0 != 0 || hexVal[w[12]] != 0xff {
		return 0, false
	}
	hi := uint64(d0)<<20 | uint64(d1)<<16 | uint64(d2)<<12 | uint64(d3)<<8 | uint64(d4)<<4 | uint64(d5)
	lo := uint64(d6)<<20 | uint64(d7)<<16 | uint64(d8)<<12 | uint64(d9)<<8 | uint64(d10)<<4 | uint64(d11)
	return hi<<24 | lo, true
}

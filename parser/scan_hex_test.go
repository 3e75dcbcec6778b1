package parser

import (
	"math/rand/v2"
	"testing"
)

// TestHex12AgreesWithHex holds hex12 to the byte loop: where it answers, hex must read the
// same value and end twelve digits on; and it must answer for every twelve digits (either
// case) followed by a byte that ends them. Every byte value is tried in every position, on random
// pointers and on the edges of each byte class.
func TestHex12AgreesWithHex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const digits = "0123456789abcdef"
	base := make([]byte, 16)
	for trial := 0; trial < 64; trial++ {
		for k := range base {
			base[k] = digits[rng.IntN(16)]
		}
		base[12] = ' '
		if trial == 0 {
			copy(base, "000000000000 ")
		} else if trial == 1 {
			copy(base, "ffffffffffff]")
		}
		for pos := 0; pos < len(base); pos++ {
			for c := 0; c < 256; c++ {
				b := append([]byte(nil), base...)
				b[pos] = byte(c)
				checkHex12(t, b)
				checkHex12(t, b[:13]) // no room beyond the delimiter
				checkHex12(t, b[:12]) // no delimiter
			}
		}
	}
}

func checkHex12(t *testing.T, b []byte) {
	t.Helper()
	v, ok := hex12(b, 0)
	r := fieldReader{b: b}
	want := r.hex()
	twelve := len(b) >= 13 && !isHexDigit(b[12])
	for _, c := range b[:min(12, len(b))] {
		twelve = twelve && isHexDigit(c)
	}
	switch {
	case ok != twelve:
		t.Fatalf("hex12(%q) ok = %v, want %v", b, ok, twelve)
	case ok && (v != want || r.i != 12 || r.bad):
		t.Fatalf("hex12(%q) = %#x; hex reads %#x over %d bytes (bad %v)", b, v, want, r.i, r.bad)
	}
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

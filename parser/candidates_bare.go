package parser

import "math/bits"

// The words that decide how a line without an envelope is read: "NCCL" (an envelope may be
// there after all, or the line is damaged NCCL output), the progress words, the framework
// words and the other marks of damaged output. wordsIn finds all of them in one pass over
// the line, where a search per word would pass over it a dozen times.
var (
	bareWords     []string
	bareFirst     [256]uint32 // bit k is set for the first byte of bareWords[k]
	maskNCCL      uint32
	maskProgress  uint32
	maskFramework uint32
	maskDamage    uint32
)

func init() {
	add := func(ws ...string) (m uint32) {
		for _, w := range ws {
			bareFirst[w[0]] |= 1 << len(bareWords)
			m |= 1 << len(bareWords)
			bareWords = append(bareWords, w)
		}
		return m
	}
	maskNCCL = add("NCCL")
	for _, w := range progressWords {
		maskProgress |= add(string(w))
	}
	for _, w := range frameworkWords {
		maskFramework |= add(string(w))
	}
	maskDamage = maskNCCL | add("opCount ", "[nranks=")
	if len(bareWords) > 32 {
		panic("parser: more bare-line words than bits") // a fault in this file, at start-up
	}
}

// wordsIn returns the set of bareWords that b holds, as bits.
func wordsIn(b []byte) (m uint32) {
	for i, c := range b {
		for f := bareFirst[c]; f != 0; f &= f - 1 {
			if k := bits.TrailingZeros32(f); lit(b, i, bareWords[k]) {
				m |= 1 << k
			}
		}
	}
	return m
}

package parser

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// The words that decide how a line without an envelope is read: "NCCL" (an envelope may be
// there after all, or the line is damaged NCCL output), the progress words, the framework
// words and the other marks of damaged output. wordsIn finds all of them in one pass over
// the line, where a search per word would pass over it a dozen times.
var (
	bareWords     []string
	bareFirst     [256]uint32 // bit k is set for the first byte of bareWords[k]
	bareHead      []uint32    // the first four bytes of each word, little-endian
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
			bareHead = append(bareHead, binary.LittleEndian.Uint32([]byte(w)))
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
	if len(bareWords) > 32 || slices.ContainsFunc(bareWords, func(w string) bool { return len(w) < 4 }) {
		panic("parser: more bare-line words than bits, or one shorter than four bytes") // a fault in this file, at start-up
	}
}

// wordsIn returns the set of bareWords that b holds, as bits. Every word is four bytes or
// longer: a word is compared in full only where its first four bytes are there.
func wordsIn(b []byte) (m uint32) {
	for i := 0; i+4 <= len(b); i++ {
		f := bareFirst[b[i]]
		if f == 0 {
			continue
		}
		head := binary.LittleEndian.Uint32(b[i:])
		for ; f != 0; f &= f - 1 {
			if k := bits.TrailingZeros32(f); head == bareHead[k] && lit(b, i, bareWords[k]) {
				m |= 1 << k
			}
		}
	}
	return m
}

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
	bareFirst     [256]uint32    // bit k is set for the first byte of bareWords[k]
	bareHead      []uint32       // the first four bytes of each word, little-endian
	bareShift     [1 << 12]uint8 // by bigramSlot: how far the next head may end, see wordsIn
	maskNCCL      uint32
	maskProgress  uint32
	maskFramework uint32
	maskDamage    uint32
)

func init() {
	for k := range bareShift {
		bareShift[k] = 3 // no word's first four bytes hold the bigram: the next head ends 3 on
	}
	add := func(ws ...string) (m uint32) {
		for _, w := range ws {
			bareFirst[w[0]] |= 1 << len(bareWords)
			m |= 1 << len(bareWords)
			bareWords = append(bareWords, w)
			bareHead = append(bareHead, binary.LittleEndian.Uint32([]byte(w)))
			addShifts(w)
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

// wordsIn returns the set of bareWords that b holds, as bits. It passes over b the way
// Wu and Manber's search does: every word is four bytes or longer, so the search looks at
// the two bytes that end a four-byte window, and where no word's first four bytes hold them
// there, no word can start in the window, nor in the next ones bareShift says. Only a window
// whose two bytes end some word's first four bytes is tried, word by word. On text that costs
// about one step per three bytes, where a step per byte was taken before.
func wordsIn(b []byte) (m uint32) {
	for e := 3; e < len(b); {
		s := bareShift[bigramSlot(b[e-1], b[e])]
		if s == 0 {
			m |= wordsAt(b, e-3)
			s = 1
		}
		e += int(s)
	}
	return m
}

// wordsAt returns the set of bareWords that start at b[i].
func wordsAt(b []byte, i int) (m uint32) {
	head := binary.LittleEndian.Uint32(b[i:])
	for f := bareFirst[b[i]]; f != 0; f &= f - 1 {
		if k := bits.TrailingZeros32(f); head == bareHead[k] && lit(b, i, bareWords[k]) {
			m |= 1 << k
		}
	}
	return m
}

// addShifts lowers bareShift for the bigrams of w's first four bytes: a window that ends in
// the bigram at w[j:j+2] may be j+2 bytes into w, so a head of w may end 2-j bytes later.
// Bigrams that share a slot take the smaller shift, which can only make the search look more.
func addShifts(w string) {
	for j := 0; j <= 2; j++ {
		k := bigramSlot(w[j], w[j+1])
		bareShift[k] = min(bareShift[k], uint8(2-j))
	}
}

// bigramSlot hashes two bytes to an index of bareShift.
func bigramSlot(a, b byte) uint32 { return (uint32(a)<<8 | uint32(b)) * 0x9E3779B1 >> 20 }

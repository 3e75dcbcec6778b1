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
	bareTri       [1 << 12]uint8 // by triSlot: bit j is set where a word's w[j:j+3] may be that trigram
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
			head := uint64(bareHead[len(bareHead)-1])
			bareTri[triSlot(head)] |= 1
			bareTri[triSlot(head>>8)] |= 2
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
// longer, so a word that starts at p holds the trigrams at p and p+1, one of them at an even
// position: wordsIn looks up the trigram at every second position in bareTri and tries the
// words only where a word's first or second trigram may be there (one step in 35 on a job's
// text). The steps do not wait on each other, where a byte-by-byte test of the first byte
// took a branch at one byte in seven, and a skip search waited on each lookup for the next.
func wordsIn(b []byte) (m uint32) {
	q := 0
	for ; q+8 <= len(b); q += 6 { // three trigrams from one load
		x := binary.LittleEndian.Uint64(b[q:])
		t0, t2, t4 := bareTri[triSlot(x)], bareTri[triSlot(x>>16)], bareTri[triSlot(x>>32)]
		if t0|t2|t4 != 0 {
			m |= wordsNear(b, q, t0) | wordsNear(b, q+2, t2) | wordsNear(b, q+4, t4)
		}
	}
	for ; q+4 <= len(b); q += 2 {
		m |= wordsNear(b, q, bareTri[triSlot(uint64(binary.LittleEndian.Uint32(b[q:])))])
	}
	if q+3 == len(b) && q > 0 {
		x := uint64(b[q]) | uint64(b[q+1])<<8 | uint64(b[q+2])<<16
		if bareTri[triSlot(x)]&2 != 0 {
			m |= wordsAt(b, q-1) // the last trigram can only end a word's head
		}
	}
	return m
}

// wordsNear tries the words that may start at q (bit 0 of t) and at q-1 (bit 1).
func wordsNear(b []byte, q int, t uint8) (m uint32) {
	if t&1 != 0 {
		m = wordsAt(b, q)
	}
	if t&2 != 0 && q > 0 {
		m |= wordsAt(b, q-1)
	}
	return m
}

// wordsAt returns the set of bareWords that start at b[i], where i+4 <= len(b).
func wordsAt(b []byte, i int) (m uint32) {
	head := binary.LittleEndian.Uint32(b[i:])
	for f := bareFirst[b[i]]; f != 0; f &= f - 1 {
		if k := bits.TrailingZeros32(f); head == bareHead[k] && lit(b, i, bareWords[k]) {
			m |= 1 << k
		}
	}
	return m
}

// triSlot hashes the three bytes at the low end of x, as read little-endian, to an index of
// bareTri. Trigrams that share a slot share its bits, which can only make wordsIn try more.
func triSlot(x uint64) uint32 { return uint32(x) & 0xFFFFFF * 0x9E3779B1 >> 20 }

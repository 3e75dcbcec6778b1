package parser

import (
	"encoding/binary"
	"math/bits"
)

// wordSet finds which of up to 32 words, each four bytes or longer, a line holds, in one pass
// over it where a search per word would pass over it once per word.
type wordSet struct {
	words []string
	first [256]uint32    // bit k is set for the first byte of words[k]
	head  []uint32       // the first four bytes of each word, little-endian
	tri   [1 << 14]uint8 // by triSlot: bit j is set where a word's w[j:j+3] may be that trigram
}

// add adds words and returns their bits. It panics past 32 words or on one shorter than four
// bytes: a fault in the caller's list, at start-up.
func (ws *wordSet) add(words ...string) (m uint32) {
	for _, w := range words {
		if len(ws.words) == 32 || len(w) < 4 {
			panic("parser: more words than bits, or one shorter than four bytes: " + w)
		}
		ws.first[w[0]] |= 1 << len(ws.words)
		m |= 1 << len(ws.words)
		ws.words = append(ws.words, w)
		head := binary.LittleEndian.Uint32([]byte(w))
		ws.head = append(ws.head, head)
		ws.tri[triSlot(uint64(head))] |= 1
		ws.tri[triSlot(uint64(head>>8))] |= 2
	}
	return m
}

// in returns the set of words that b holds, as bits. A word that starts at p holds the
// trigrams at p and p+1, one of them at an even position: in looks up the trigram at every
// second position in tri and tries the words only where a word's first or second trigram
// may be there (one step in 35 on a job's text). The steps do not wait on each other, where
// a byte-by-byte test of the first byte took a branch at one byte in seven, and a skip search
// waited on each lookup for the next.
func (ws *wordSet) in(b []byte) (m uint32) {
	q := 0
	for ; q+8 <= len(b); q += 6 { // three trigrams from one load
		x := binary.LittleEndian.Uint64(b[q : q+8])
		if ws.tri[triSlot(x)]|ws.tri[triSlot(x>>16)]|ws.tri[triSlot(x>>32)] != 0 {
			m |= ws.near(b, q, ws.tri[triSlot(x)]) | ws.near(b, q+2, ws.tri[triSlot(x>>16)]) |
				ws.near(b, q+4, ws.tri[triSlot(x>>32)])
		}
	}
	for ; q+4 <= len(b); q += 2 {
		m |= ws.near(b, q, ws.tri[triSlot(uint64(binary.LittleEndian.Uint32(b[q:])))])
	}
	if q+3 == len(b) && q > 0 {
		x := uint64(b[q]) | uint64(b[q+1])<<8 | uint64(b[q+2])<<16
		if ws.tri[triSlot(x)]&2 != 0 {
			m |= ws.at(b, q-1) // the last trigram can only end a word's head
		}
	}
	return m
}

// near tries the words that may start at q (bit 0 of t) and at q-1 (bit 1).
func (ws *wordSet) near(b []byte, q int, t uint8) (m uint32) {
	if t&1 != 0 {
		m = ws.at(b, q)
	}
	if t&2 != 0 && q > 0 {
		m |= ws.at(b, q-1)
	}
	return m
}

// at returns the set of words that start at b[i], where i+4 <= len(b).
func (ws *wordSet) at(b []byte, i int) (m uint32) {
	head := binary.LittleEndian.Uint32(b[i:])
	for f := ws.first[b[i]]; f != 0; f &= f - 1 {
		if k := bits.TrailingZeros32(f); head == ws.head[k] && lit(b, i, ws.words[k]) {
			m |= 1 << k
		}
	}
	return m
}

// triSlot hashes the three bytes at the low end of x, as read little-endian, to an index of
// tri. Trigrams that share a slot share its bits, which can only make in try more.
func triSlot(x uint64) uint32 { return uint32(x) & 0xFFFFFF * 0x9E3779B1 >> 18 }

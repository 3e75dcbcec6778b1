package pipeline

import "encoding/binary"

// firstWindow is the dictionary (xz) or window (zstd) that the first block or frame header in
// head, a stream's first bytes, declares; 0 where head holds none whole (an empty stream, a
// short read, a skippable zstd frame first), or for other codecs. It decides only whether
// the input waits to be read without other large windows (windowGate); the decoder checks
// every header against its limit.
func firstWindow(codec string, head []byte) int64 {
	switch codec {
	case "xz":
		return xzFirstDict(head)
	case "zstd":
		return zstdFirstWindow(head)
	}
	return 0
}

// xzFirstDict reads the LZMA2 filter of the first block header, after the 12-byte stream
// header (xz file format 1.0.4, 3.1).
func xzFirstDict(head []byte) int64 {
	if len(head) < 14 || head[12] == 0 { // no block: an index comes first
		return 0
	}
	end := 12 + (int(head[12])+1)*4
	if end > len(head) {
		return 0
	}
	flags, p := head[13], head[14:end]
	for _, size := range []bool{flags&0x40 != 0, flags&0x80 != 0} { // compressed, uncompressed size
		if size {
			if p = skipVarint(p); p == nil {
				return 0
			}
		}
	}
	for range int(flags&3) + 1 {
		id, n := binary.Uvarint(p)
		if n <= 0 || n >= len(p) {
			return 0
		}
		psize, m := binary.Uvarint(p[n:])
		if m <= 0 || uint64(len(p)-n-m) < psize {
			return 0
		}
		if props := p[n+m:]; id == 0x21 && psize == 1 {
			return lzma2Dict(props[0])
		}
		p = p[n+m+int(psize):]
	}
	return 0
}

func skipVarint(p []byte) []byte {
	if _, n := binary.Uvarint(p); n > 0 {
		return p[n:]
	}
	return nil
}

// lzma2Dict is the dictionary size an LZMA2 property byte stands for.
func lzma2Dict(b byte) int64 {
	switch {
	case b > 40:
		return 1 << 32 // invalid: the decoder refuses it
	case b == 40:
		return 1<<32 - 1
	}
	return int64(2|b&1) << (b/2 + 11)
}

// zstdFirstWindow reads the first frame header after the magic (RFC 8878, 3.1.1.1).
func zstdFirstWindow(head []byte) int64 {
	if len(head) < 6 {
		return 0
	}
	fhd := head[4]
	if fhd&0x20 == 0 { // a window descriptor
		wd := head[5]
		base := int64(1) << (10 + wd>>3)
		return base + base/8*int64(wd&7)
	}
	// A single segment: the window is the content size, after the dictionary ID.
	p := 5 + []int{0, 1, 2, 4}[fhd&3]
	switch fcs := []int{1, 2, 4, 8}[fhd>>6]; {
	case len(head) < p+fcs:
		return 0
	case fcs == 1:
		return int64(head[p])
	case fcs == 2:
		return int64(binary.LittleEndian.Uint16(head[p:])) + 256
	case fcs == 4:
		return int64(binary.LittleEndian.Uint32(head[p:]))
	default:
		return int64(min(binary.LittleEndian.Uint64(head[p:]), 1<<62))
	}
}

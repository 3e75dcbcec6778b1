package parser

// shape is an FNV-1a hash of what decides how a line is read: its prefix with the digits left
// out, its kind, and the first word of its message (the op name for collectives).
type shape uint64

func newShape(prefix []byte) shape {
	h := shape(14695981039346656037)
	for _, c := range prefix {
		if !isDigit(c) {
			h = h.add(c)
		}
	}
	return h
}

func (h shape) add(c byte) shape { return (h ^ shape(c)) * 1099511628211 }

// addWord mixes in the first word of b (at most 24 bytes).
func (h shape) addWord(b []byte) shape {
	for i := 0; i < len(b) && i < 24 && !isSp(b[i]) && !isDigit(b[i]); i++ {
		h = h.add(b[i])
	}
	return h
}

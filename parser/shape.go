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

// shapeTable counts the lines of each shape the scanner reads, in a fixed number of slots:
// a log with millions of distinct shapes (hostile input, an INFO flood of new words) must not
// grow it, nor send every line of a new shape to the grammar. Shapes that find no free slot
// share one count, so the grammar still checks the 1st, 4th, 16th, ... of those lines.
type shapeTable struct {
	sets     [shapeSets][shapeWays]shapeState
	overflow shapeState
}

// A real log's lines take a few hundred shapes; 4,096 slots fill, at worst, with a grammar
// run each (under a second) before the shared count takes over.
const (
	shapeSets = 1024
	shapeWays = 4
)

// shapeState is one shape's count; seen is 0 in a free slot.
type shapeState struct {
	sh          uint64
	seen        uint64
	grammarOnly bool
}

// get returns the state of sh: its slot, a free one, or the shared overflow state.
func (t *shapeTable) get(sh uint64) *shapeState {
	set := &t.sets[sh*0x9E3779B97F4A7C15>>(64-10)]
	for k := range set {
		if st := &set[k]; st.seen != 0 && st.sh == sh {
			return st
		}
	}
	for k := range set {
		if st := &set[k]; st.seen == 0 {
			st.sh = sh
			return st
		}
	}
	return &t.overflow
}

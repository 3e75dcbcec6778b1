package stages

import (
	"fmt"
	"io"

	"github.com/nccllog/nccllog/parser"
)

// aheadPiece is how many bytes Lookahead reads at a time.
const aheadPiece = 1 << 20

// Lookahead is an Ahead over a second reading of an input: it reads forward only, from
// where the last call stopped, so all its calls together read the input once at most, and
// it reads only the lines that may be markers, with the marker decision of a worker that
// reads the markers only (Read).
type Lookahead struct {
	r    io.Reader // the input, from byte pos+len(data) on
	p    *parser.Parser
	buf  []byte // data's memory
	data []byte // input bytes from pos on, read and not passed
	pos  int64
	end  bool // r is at its end
}

// NewLookahead reads ahead in r, the input from its first byte, with p. Where r is an
// io.Seeker, bytes it passes over are not read. buf is memory to read into (nil: its own):
// a run of many small inputs looks ahead in each, and a fresh megabyte for each one cost
// more, zeroing it, than reading.
func NewLookahead(r io.Reader, p *parser.Parser, buf []byte) *Lookahead {
	return &Lookahead{r: r, p: p, buf: buf[:0]}
}

// Release returns the memory a read into, for the next Lookahead; a must not be used after.
func (a *Lookahead) Release() []byte {
	buf := a.buf[:0]
	*a = Lookahead{}
	return buf
}

// Marker returns the first marker at or after byte from.
func (a *Lookahead) Marker(from int64) (Mark, error) {
	if err := a.skip(from); err != nil {
		return Mark{}, err
	}
	for {
		whole := len(a.data)
		if !a.end {
			whole = parser.WholeLines(a.data)
		}
		if m, ok := markerFinder(a.data[:whole], a.p)(0); ok {
			return Mark{Step: m.line.Prog.Step, At: a.pos + int64(m.start), Found: true}, nil
		}
		if a.end {
			return Mark{Step: -1}, nil
		}
		a.data, a.pos = a.data[whole:], a.pos+int64(whole)
		a.fill()
	}
}

// skip passes over the input up to byte from.
func (a *Lookahead) skip(from int64) error {
	if from < a.pos {
		return fmt.Errorf("internal error: looking ahead from byte %d, behind byte %d", from, a.pos)
	}
	if n := from - a.pos; n <= int64(len(a.data)) {
		a.data, a.pos = a.data[n:], from
		return nil
	}
	n := from - a.pos - int64(len(a.data))
	a.data, a.pos = a.data[:0], from
	if s, ok := a.r.(io.Seeker); ok {
		_, err := s.Seek(n, io.SeekCurrent)
		return err
	}
	if _, err := io.CopyN(io.Discard, a.r, n); err != nil {
		a.end = true // the input ends, or fails, before from: where it does, so does its reading
	}
	return nil
}

// fill reads up to aheadPiece more bytes after data; it cannot fail.
func (a *Lookahead) fill() {
	if cap(a.buf) < len(a.data)+aheadPiece {
		a.buf = make([]byte, 0, 2*(len(a.data)+aheadPiece)) // room for the next carry too
	}
	a.data = append(a.buf[:0], a.data...)
	n, err := io.ReadFull(a.r, a.data[len(a.data):len(a.data)+aheadPiece])
	a.data = a.data[:len(a.data)+n]
	// The input's end, or a read error, which the input's reading meets at the same byte:
	// no marker past it is read there either. A marker the chunks then have is an error.
	a.end = err != nil
}

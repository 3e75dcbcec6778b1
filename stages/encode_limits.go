package stages

import (
	"errors"
	"fmt"
	"io"

	"github.com/nccllog/nccllog/parser"
)

// A partial result travels between machines (the Slurm fan-out), so reading one must not
// let a small file make a run read or hold much more than its size: what it decompresses
// to, the strings and numbers in it, and the calls its runs expand to are bounded by its
// size as stored.
const (
	// partialRatio is how many bytes of JSON a partial result may hold per byte stored;
	// summarize's output holds about 18 on generated jobs (zstd on JSON).
	partialRatio = 32
	// partialFloor is the JSON any partial result may hold, however small it is stored.
	partialFloor = 4 << 20
	// partialMax is the JSON no partial result may hold.
	partialMax = 4 << 30
	// maxPartialString is the longest JSON string: file names and the set-up lines kept
	// (a line is read up to a chunk, 1 MiB).
	maxPartialString = 1 << 20
	// maxPartialToken is the longest number or literal (an int64 is 20 characters).
	maxPartialToken = 64
	// callsFloor and callsPerByte bound the calls a partial's call sequences expand to:
	// a run of calls repeats the calls of the run before without listing them, which is
	// what keeps a partial small, so a few bytes may stand for many calls, but not without
	// end. A call takes 16 bytes once expanded; generated jobs' partials expand to under one
	// call per stored byte.
	callsFloor   = 1 << 20
	callsPerByte = 4
	// maxPartialCount is the largest line or call count a partial may declare: no log
	// holds 2^48 lines, and counts of up to 2^15 partials still add up without overflow.
	MaxPartialCount = 1 << 48
)

// ErrPartialLimit is returned by Decode where a partial declares more than its size allows.
var ErrPartialLimit = errors.New("partial result over its limits")

// Limits bound what reading one partial result may take; their zero value allows what a
// partial of a few bytes may (see NewLimits).
type Limits struct {
	stored int64 // the file's size as stored
	calls  int64 // calls its sequences may still expand to
	parser *parser.Parser
}

// WithParser has the set-up lines read again by p rather than by a new Parser (making one
// takes milliseconds; a run over many partials lends its own).
func (l *Limits) WithParser(p *parser.Parser) *Limits {
	l.parser = p
	return l
}

// lineParser is the Parser to read set-up lines again with.
func (l *Limits) LineParser() (*parser.Parser, error) {
	if l.parser != nil {
		return l.parser, nil
	}
	return parser.NewParser()
}

// NewLimits returns the limits of a partial result stored in stored bytes (compressed,
// where it is).
func NewLimits(stored int64) *Limits {
	return &Limits{stored: stored, calls: callsFloor + callsPerByte*max(stored, 0)}
}

// json is how many bytes of JSON the partial may hold.
func (l *Limits) json() int64 {
	return min(max(partialRatio*l.stored, partialFloor), partialMax)
}

// takeCalls counts n more calls expanded, failing once they are over the limit.
func (l *Limits) TakeCalls(n int64) error {
	if n > l.calls {
		total := callsFloor + callsPerByte*max(l.stored, 0)
		return fmt.Errorf("%w: its call sequences expand to more than %d calls, the most a partial result of %d bytes may hold (%d, and %d per byte)",
			ErrPartialLimit, total, l.stored, callsFloor, callsPerByte)
	}
	l.calls -= n
	return nil
}

// capped reads a partial's JSON up to its limit, failing on a string or a number longer
// than JSON from summarize holds. It scans every byte; partial results are small.
type capped struct {
	r        io.Reader
	n, max   int64 // bytes read, and the most allowed
	inString bool
	escaped  bool
	run      int // length of the string or token being read
	stored   int64
}

func newCapped(r io.Reader, l *Limits) *capped {
	return &capped{r: r, max: l.json(), stored: l.stored}
}

func (c *capped) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return 0, fmt.Errorf("%w: it decompresses to more than %d bytes of JSON, the most a partial result of %d bytes may (%d times its size, at least %d MiB)",
			ErrPartialLimit, c.max, c.stored, partialRatio, partialFloor>>20)
	}
	if e := c.scan(p[:n], c.n-int64(n)); e != nil {
		return 0, e
	}
	return n, err
}

// scan follows strings and tokens through b, which starts at byte at of the JSON.
func (c *capped) scan(b []byte, at int64) error {
	for i, ch := range b {
		switch {
		case c.inString:
			c.run++
			switch {
			case c.escaped:
				c.escaped = false
			case ch == '\\':
				c.escaped = true
			case ch == '"':
				c.inString, c.run = false, 0
			}
			if c.run > maxPartialString {
				return fmt.Errorf("%w: a string of more than %d bytes (at byte %d of its JSON)", ErrPartialLimit, maxPartialString, at+int64(i))
			}
		case ch == '"':
			c.inString, c.run = true, 0
		case ch == '{' || ch == '}' || ch == '[' || ch == ']' || ch == ',' || ch == ':' ||
			ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r':
			c.run = 0
		default:
			if c.run++; c.run > maxPartialToken {
				return fmt.Errorf("%w: a number of more than %d characters (at byte %d of its JSON)", ErrPartialLimit, maxPartialToken, at+int64(i))
			}
		}
	}
	return nil
}

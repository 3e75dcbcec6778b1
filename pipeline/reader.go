package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nccllog/nccllog/parser"
)

// chunk is a run of whole lines handed from the reader to a worker.
type chunk struct {
	seq  int
	data []byte  // whole lines; the last may lack its newline only at the end of the input
	buf  *[]byte // its buffer, or for a mapped file an empty one that stands for its place
	// upTo is how many bytes of the input file (compressed, where it is) were read by the
	// time this chunk was cut, for Options.Progress.
	upTo int64
}

// MaxLine is the longest line read from standard input, a pipe, a device or compressed data:
// 64 MiB. Such a line is held whole in memory while it is read, so without a limit an endless
// one (/dev/zero) takes all memory. A longer line ends the input with an error naming its
// file and line, after the lines before it. A plain file is mapped, not held, and has no limit.
const MaxLine = 64 << 20

// readChunks reads src into chunks of about size bytes cut after a newline and sends them in
// order, numbered without gaps. On a read error the bytes read so far still go out (a line cut
// short by the error counts as a line) before the error is returned. Buffers come from pool,
// which bounds how many are in flight. A line longer than a chunk grows the buffer, up to
// maxLine bytes.
func readChunks(ctx context.Context, src *source, name string, size int, pool *bufPool, out chan<- chunk) error {
	return readChunksUpTo(ctx, src, name, size, MaxLine, pool, out)
}

// readChunksUpTo is readChunks with a line-length limit of maxLine bytes.
func readChunksUpTo(ctx context.Context, src *source, name string, size, maxLine int, pool *bufPool, out chan<- chunk) error {
	defer close(out)
	if err := src.start(ctx); err != nil {
		return err
	}
	var carry []byte
	var lines int64 // in the chunks sent, for the error of a line that is too long
	for seq := 0; ; {
		buf, err := pool.get(ctx)
		if err != nil {
			return err
		}
		data, cut, err := readChunk(ctx, src.r, append((*buf)[:0], carry...), size, maxLine)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, errLongLine) {
			pool.put(buf)
			return fmt.Errorf("%s:%d: a line longer than %d MiB, the most nccllog reads from a pipe or compressed data",
				name, lines+1, maxLine>>20)
		}
		carry = append(carry[:0], data[cut:]...)
		*buf = data
		lines += int64(bytes.Count(data[:cut], []byte{'\n'}))
		if cut > 0 {
			select {
			case out <- chunk{seq: seq, data: data[:cut], buf: buf, upTo: src.consumed()}:
				seq++
			case <-ctx.Done():
				return ctx.Err()
			}
		} else {
			pool.put(buf)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return readError(name, src, err)
		}
	}
}

// errLongLine says that a line is longer than the limit.
var errLongLine = errors.New("line too long")

// readChunk reads size more bytes after data (the carry of the chunk before, which holds no
// newline) and returns them with the end of their last whole line, reading on by size bytes
// at a time while there is none: a line longer than a chunk is read into one buffer, and
// only the bytes just read are searched for a newline, so its cost grows with its length and
// not with its square. At the end of the input (err non-nil) cut is len(data). It stops,
// with ctx's error, when ctx is done, and with errLongLine once data holds more than maxLine
// bytes and no newline.
func readChunk(ctx context.Context, r io.Reader, data []byte, size, maxLine int) (_ []byte, cut int, err error) {
	for from := len(data); ; from = len(data) {
		if err := ctx.Err(); err != nil {
			return data, 0, err
		}
		if from > maxLine {
			return data, 0, errLongLine
		}
		data, err = fill(r, data, len(data)+size)
		if err != nil {
			return data, len(data), err
		}
		if cut = parser.WholeLines(data[from:]); cut > 0 { // none: a line longer than the chunk, read on
			return data, from + cut, nil
		}
	}
}

// fill reads until data holds at least size bytes or the input ends. It grows data only
// where its free room holds neither what is still wanted nor 32 KiB, so a buffer that
// already has room for the chunk is read into as it is.
func fill(r io.Reader, data []byte, size int) ([]byte, error) {
	for len(data) < size {
		if free := cap(data) - len(data); free < size-len(data) && free < 32<<10 {
			data = append(data, make([]byte, size)...)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil {
			return data, err
		}
	}
	return data, nil
}

// bufPool holds a fixed number of chunk buffers: the reader waits for one to come back
// rather than allocating, so memory stays flat however fast the reader is. The first buffer
// it makes holds at most firstBuf bytes, and fill grows it where the input is longer: a small
// input read from a pipe does not allocate (and have the runtime clear) a whole chunk.
type bufPool struct {
	free chan *[]byte
	size int
	left int // buffers not yet made: a small input never needs them all
	gets int // buffers asked for: the first is made small (firstBuf)
}

// firstBuf is the most the first buffer of a bufPool holds when it is made.
const firstBuf = 64 << 10

func newBufPool(n, size int) *bufPool {
	return &bufPool{free: make(chan *[]byte, n), size: size, left: n}
}

// get is called by the reader only.
func (p *bufPool) get(ctx context.Context) (*[]byte, error) {
	p.gets++
	select {
	case b := <-p.free:
		return b, nil
	default:
	}
	if p.left > 0 {
		p.left--
		n := p.size + p.size/4
		if p.gets == 1 {
			n = min(n, firstBuf)
		}
		b := make([]byte, 0, n)
		return &b, nil
	}
	select {
	case b := <-p.free:
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// put returns a buffer; one that grew for a very long line is let go and replaced.
func (p *bufPool) put(b *[]byte) {
	if cap(*b) > 8*p.size {
		nb := make([]byte, 0, p.size+p.size/4)
		b = &nb
	}
	p.free <- b
}

func readError(name string, src *source, err error) error {
	if we := (*WindowError)(nil); errors.As(err, &we) {
		return we // names the file and the cap itself
	}
	if src.codec != "" {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%q: %s data ends early (truncated file?) at byte %d", name, src.codec, src.raw.n)
		}
		return fmt.Errorf("%q: corrupt %s data near byte %d: %v", name, src.codec, src.raw.n, err)
	}
	return fmt.Errorf("%q: %v", name, err)
}

package main

import "io"

// bufWriter buffers writes to w as a bufio.Writer of size bytes does, writing the same bytes
// in the same write calls, but its buffer grows as output comes instead of being allocated
// whole at the start: a run that prints a few lines allocates (and the runtime clears) a few
// KB rather than the whole buffer, and one that prints much grows it once to size.
type bufWriter struct {
	w    io.Writer
	buf  []byte // what is buffered; cap(buf) <= size
	size int
	err  error // the first write error; later writes and flushes return it
}

// minBuf is the smallest buffer a bufWriter allocates.
const minBuf = 4 << 10

func newBufWriter(w io.Writer, size int) *bufWriter { return &bufWriter{w: w, size: size} }

// available is how many bytes the buffer takes before it must be flushed.
func (b *bufWriter) available() int { return b.size - len(b.buf) }

// add appends p, which fits in what is available, growing the buffer where it must.
func (b *bufWriter) add(p []byte) {
	if n := len(b.buf) + len(p); n > cap(b.buf) {
		nb := make([]byte, len(b.buf), min(b.size, max(n, 2*cap(b.buf), minBuf)))
		copy(nb, b.buf)
		b.buf = nb
	}
	b.buf = append(b.buf, p...)
}

// Write is bufio.Writer's Write.
func (b *bufWriter) Write(p []byte) (nn int, err error) {
	for len(p) > b.available() && b.err == nil {
		var n int
		if len(b.buf) == 0 {
			// Large write, empty buffer: write directly from p to avoid a copy.
			n, b.err = b.w.Write(p)
		} else {
			n = b.available()
			b.add(p[:n])
			b.Flush()
		}
		nn += n
		p = p[n:]
	}
	if b.err != nil {
		return nn, b.err
	}
	b.add(p)
	return nn + len(p), nil
}

// Flush is bufio.Writer's Flush: it writes what is buffered and returns the first error.
func (b *bufWriter) Flush() error {
	if b.err != nil {
		return b.err
	}
	if len(b.buf) == 0 {
		return nil
	}
	n, err := b.w.Write(b.buf)
	if n < len(b.buf) && err == nil {
		err = io.ErrShortWrite
	}
	if err != nil {
		b.err = err // nothing is written after it, so what was not written is not kept
		return err
	}
	b.buf = b.buf[:0]
	return nil
}

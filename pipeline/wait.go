package pipeline

import (
	"context"
	"io"
	"os"
)

// Standard input, pipes, FIFOs and terminals can keep a read or an open waiting for ever
// (an idle producer, a FIFO nobody writes to). The run must still end within moments of its
// context ending (Ctrl-C, SIGTERM), so those waits happen in a goroutine that the run stops
// waiting for; the goroutine ends with its system call, or with the process.

// openWaiting opens name for reading, or returns ctx's error if ctx ends first (a FIFO's open
// waits for a writer).
func openWaiting(ctx context.Context, name string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// readAhead is how many bytes a cancelable reader asks for at a time.
const readAhead = 64 << 10

// cancelable returns a reader of r whose Read returns ctx's error as soon as ctx ends, even
// while a read of r waits. r is read by a goroutine into two rotating buffers: one being
// filled while the other is consumed.
func cancelable(ctx context.Context, r io.Reader) io.Reader {
	c := &cancelReader{ctx: ctx, free: make(chan []byte, 2), full: make(chan filled, 2)}
	c.free <- make([]byte, readAhead)
	c.free <- make([]byte, readAhead)
	go c.fill(r)
	return c
}

type cancelReader struct {
	ctx  context.Context
	free chan []byte // buffers to fill
	full chan filled // filled buffers, in order
	cur  filled      // the buffer being consumed
	off  int
}

type filled struct {
	buf []byte // the whole buffer, to hand back
	n   int
	err error
}

// fill reads r until it fails or ctx ends.
func (c *cancelReader) fill(r io.Reader) {
	for {
		var buf []byte
		select {
		case buf = <-c.free:
		case <-c.ctx.Done():
			return
		}
		n, err := r.Read(buf)
		c.full <- filled{buf, n, err}
		if err != nil {
			return
		}
	}
}

func (c *cancelReader) Read(p []byte) (int, error) {
	for c.off == c.cur.n {
		if c.cur.err != nil {
			return 0, c.cur.err
		}
		if c.cur.buf != nil {
			c.free <- c.cur.buf
		}
		select {
		case c.cur = <-c.full:
			c.off = 0
		case <-c.ctx.Done():
			c.cur = filled{err: c.ctx.Err()}
			return 0, c.cur.err
		}
	}
	n := copy(p, c.cur.buf[c.off:c.cur.n])
	c.off += n
	return n, nil
}

package pipeline

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Input is one log to read: a file name, or "-" for standard input.
type Input struct {
	Name  string
	Stdin io.Reader // read when Name is "-"
	// gate is the run's windowGate, shared by its inputs; nil for a run of one input, whose
	// decoders take up to the caps.
	gate *windowGate
}

// DisplayName is how messages name the input.
func (in Input) DisplayName() string {
	if in.Name == "-" {
		return "<stdin>"
	}
	return in.Name
}

// source is an opened input: the decompressed stream, and how far into the raw file the
// reader has got (for errors in compressed data).
type source struct {
	r      io.Reader
	raw    *countingReader
	closer io.Closer
	codec  string
	// file is set for a regular file, of size bytes when opened: one that can be mapped.
	file *os.File
	size int64
	// late opens an input that may block (standard input, a FIFO, a device) when reading
	// starts, where the run's context can end the wait; nil once it has run.
	late func(ctx context.Context) (io.Reader, io.Closer, error)
	name string
	gate *windowGate
	// gated says that the input holds gate, to give back on Close.
	gated bool
	// dec is the decompressor, closed by Close (an xz or zstd one goes back to gate's kept).
	dec io.Closer
}

func (s *source) Close() error {
	if s.dec != nil { // before s.r is wrapped (readPartial buffers it), so kept here
		s.dec.Close()
		s.dec = nil
	}
	if s.gated {
		s.gated = false
		s.gate.leave()
	}
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// open opens an input. A regular file (or a directory, which fails when read) is opened at
// once and its compression told by its first bytes; standard input, FIFOs and devices are
// opened by start, since opening a FIFO or reading a terminal can wait for ever.
func open(in Input) (*source, error) {
	src := &source{name: in.DisplayName(), gate: in.gate}
	if in.Name == "-" {
		src.late = func(ctx context.Context) (io.Reader, io.Closer, error) {
			return cancelable(ctx, in.Stdin), nil, nil
		}
		return src, nil
	}
	if st, err := os.Stat(in.Name); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		src.late = func(ctx context.Context) (io.Reader, io.Closer, error) {
			fh, err := openWaiting(ctx, in.Name)
			if err != nil {
				return nil, nil, openError(err)
			}
			return cancelable(ctx, fh), fh, nil
		}
		return src, nil
	}
	fh, err := os.Open(in.Name)
	if err != nil {
		return nil, openError(err)
	}
	if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() {
		src.file, src.size = fh, st.Size()
	}
	if err := src.decode(fh, fh); err != nil {
		return nil, err
	}
	return src, nil
}

// openError is an open's error as one line that quotes the name ("x.log": no such file or
// directory), so that a name holding a newline or spaces cannot blur where it ends; other
// errors (a cancelled wait) are returned as they are.
func openError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%q: %w", pe.Path, pe.Err)
	}
	return err
}

// start opens a late input, and lets a decoder that waits for the gate stop waiting when
// ctx ends; it returns ctx's error if ctx ends first.
func (s *source) start(ctx context.Context) error {
	if late := s.late; late != nil {
		s.late = nil
		r, closer, err := late(ctx)
		if err != nil {
			return err
		}
		if err := s.decode(r, closer); err != nil {
			return err
		}
	}
	if g, ok := s.dec.(*gatedDecoder); ok {
		g.ctx = ctx
	}
	return nil
}

// decode reads r, closed by closer, through the decompressor its first bytes call for, with
// the dictionary or window limit that its first header and the run's windowGate give.
func (s *source) decode(r io.Reader, closer io.Closer) error {
	s.raw = &countingReader{r: r}
	s.closer = closer
	br := bufio.NewReaderSize(s.raw, s.readerSize())
	head := peekHead(br)
	s.codec = codecOf(head)
	limit, wait := s.limit(firstWindow(s.codec, head))
	if wait {
		g := &gatedDecoder{src: s, br: br}
		s.r, s.dec = g, g
		return nil
	}
	zr, err := decompressor(s.codec, s.name, limit, br, s.gate.kept())
	if we := (*WindowError)(nil); errors.As(err, &we) {
		s.Close()
		return we
	}
	if err != nil {
		s.Close()
		return fmt.Errorf("%q: not a readable %s stream: %w", s.name, s.codec, err)
	}
	s.r = zr
	s.dec, _ = zr.(io.Closer)
	return nil
}

// limit is the largest dictionary or window the decoder of a stream whose first header
// declares first may take, and whether it must first wait for the gate (see windowGate).
func (s *source) limit(first int64) (limit int64, wait bool) {
	most := codecCap(s.codec)
	switch {
	case s.codec != "xz" && s.codec != "zstd":
		return 0, false
	case s.gate == nil || first > most: // a header over the cap fails on its own
		return most, false
	case first <= smallWindow:
		return smallWindow, false
	case s.gate.tryEnter(s.name):
		s.gated = true
		return most, false
	}
	return most, true
}

// readerSize is the size of the buffer decode reads an input through: 64 KiB, or a regular
// file's size where that is less (it holds the whole file), and at least 4 KiB, more than
// the longest head peekHead reads.
func (s *source) readerSize() int {
	const most = 64 << 10
	if s.file != nil && s.size < most {
		return max(4<<10, int(s.size))
	}
	return most
}

// peekHead is as much of br's first bytes as its codec's first header needs: 6 to tell the
// codec, 18 for a zstd frame header, the whole of an xz stream's first block header; fewer
// where the input is shorter. It waits for no more, so a slow pipe's first lines are not held.
func peekHead(br *bufio.Reader) []byte {
	head, _ := br.Peek(6)
	switch codecOf(head) {
	case "zstd":
		head, _ = br.Peek(18)
	case "xz":
		if head, _ = br.Peek(13); len(head) == 13 && head[12] != 0 {
			head, _ = br.Peek(12 + (int(head[12])+1)*4)
		}
	}
	return head
}

// gatedDecoder is the decoder of an input that waits for the windowGate: it waits at its
// first read, when reading starts, and then reads through the decoder.
type gatedDecoder struct {
	src *source
	br  *bufio.Reader
	zr  io.Reader
	ctx context.Context // ends the wait; set by start (a read before it, readPartial's, waits)
}

func (g *gatedDecoder) Read(p []byte) (int, error) {
	if g.zr == nil {
		ctx := g.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		if err := g.src.gate.enter(ctx, g.src.name); err != nil {
			return 0, err
		}
		g.src.gated = true
		zr, err := decompressor(g.src.codec, g.src.name, codecCap(g.src.codec), g.br, g.src.gate.kept())
		if err != nil {
			return 0, fmt.Errorf("not a readable %s stream: %w", g.src.codec, err)
		}
		g.zr = zr
	}
	return g.zr.Read(p)
}

func (g *gatedDecoder) Close() error {
	if c, ok := g.zr.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// consumed is how many bytes of the raw input have been read (0 for a source without a count).
func (s *source) consumed() int64 {
	if s.raw == nil {
		return 0
	}
	return s.raw.n
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

package pipeline

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
)

// Input is one log to read: a file name, or "-" for standard input.
type Input struct {
	Name  string
	Stdin io.Reader // read when Name is "-"
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
}

func (s *source) Close() error {
	if c, ok := s.r.(io.Closer); ok && s.r != s.raw {
		c.Close()
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
	src := &source{name: in.DisplayName()}
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
				return nil, nil, err
			}
			return cancelable(ctx, fh), fh, nil
		}
		return src, nil
	}
	fh, err := os.Open(in.Name)
	if err != nil {
		return nil, err
	}
	if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() {
		src.file, src.size = fh, st.Size()
	}
	if err := src.decode(fh, fh); err != nil {
		return nil, err
	}
	return src, nil
}

// start opens a late input; it returns ctx's error if ctx ends first.
func (s *source) start(ctx context.Context) error {
	if s.late == nil {
		return nil
	}
	late := s.late
	s.late = nil
	r, closer, err := late(ctx)
	if err != nil {
		return err
	}
	return s.decode(r, closer)
}

// decode reads r, closed by closer, through the decompressor its first bytes call for.
func (s *source) decode(r io.Reader, closer io.Closer) error {
	s.raw = &countingReader{r: r}
	s.closer = closer
	br := bufio.NewReaderSize(s.raw, 64<<10)
	magic, _ := br.Peek(6)
	zr, codec, err := decompressor(magic, br)
	if err != nil {
		s.Close()
		return fmt.Errorf("%s: not a readable %s stream: %w", s.name, codec, err)
	}
	s.r, s.codec = zr, codec
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

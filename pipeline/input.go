package pipeline

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
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

// open opens an input and, by its first bytes (not its name), decompresses gzip or zstd.
func open(in Input) (*source, error) {
	var f io.Reader = in.Stdin
	var closer io.Closer
	if in.Name != "-" {
		fh, err := os.Open(in.Name)
		if err != nil {
			return nil, err
		}
		f, closer = fh, fh
	}
	raw := &countingReader{r: f}
	br := bufio.NewReaderSize(raw, 64<<10)
	magic, _ := br.Peek(4)
	src := &source{r: br, raw: raw, closer: closer}
	if fh, ok := closer.(*os.File); ok {
		if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() {
			src.file, src.size = fh, st.Size()
		}
	}
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			src.Close()
			return nil, fmt.Errorf("not a readable gzip stream: %w", err)
		}
		src.r, src.codec = zr, "gzip"
	case len(magic) == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd:
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			src.Close()
			return nil, fmt.Errorf("not a readable zstd stream: %w", err)
		}
		src.r, src.codec = zr.IOReadCloser(), "zstd"
	}
	return src, nil
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

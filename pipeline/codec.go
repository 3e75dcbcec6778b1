package pipeline

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// maxZstdWindow is the largest zstd window read: 2 GiB, what zstd --long=31 (its largest)
// writes. The decoder holds at most the window a stream declares.
const maxZstdWindow = 1 << 31

// decompressor returns br read through the decompressor that magic, its first bytes, name,
// and the codec's name; br itself and "" for plain text.
func decompressor(magic []byte, br *bufio.Reader) (io.Reader, string, error) {
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		r, err := newGzipStream(br)
		return r, "gzip", err
	case bytes.HasPrefix(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, "zstd", err
		}
		return zr.IOReadCloser(), "zstd", nil
	case len(magic) >= 4 && bytes.HasPrefix(magic, []byte("BZh")) && magic[3] >= '1' && magic[3] <= '9':
		return bzip2.NewReader(br), "bzip2", nil
	case bytes.HasPrefix(magic, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		r, err := xz.NewReader(br)
		return r, "xz", err
	}
	return br, "", nil
}

// gzipStream reads the members of a gzip file one after another, and, as gzip does, takes
// zero bytes after the last member (tape and block-device padding) for the end.
type gzipStream struct {
	br *bufio.Reader
	zr *gzip.Reader
}

func newGzipStream(br *bufio.Reader) (*gzipStream, error) {
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	return &gzipStream{br: br, zr: zr}, nil
}

func (g *gzipStream) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		switch {
		case err != io.EOF:
			return n, err
		case n > 0:
			return n, nil // the member's end shows on the next Read
		}
		if more, err := g.nextMember(); !more {
			return 0, err
		}
	}
}

// nextMember starts the member after the one just ended; false with io.EOF where there is
// none, only zero padding or nothing.
func (g *gzipStream) nextMember() (bool, error) {
	zeros := 0
	for {
		b, err := g.br.ReadByte()
		switch {
		case err == io.EOF:
			return false, io.EOF
		case err != nil:
			return false, err
		case b == 0:
			zeros++
			continue
		case zeros > 0:
			return false, errors.New("data after the zero padding that ends the gzip stream")
		}
		g.br.UnreadByte()
		if err := g.zr.Reset(g.br); err != nil {
			return false, err
		}
		g.zr.Multistream(false)
		return true, nil
	}
}

func (g *gzipStream) Close() error { return g.zr.Close() }

package pipeline

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/xi2/xz"
)

// The largest dictionary and window read: a decoder holds the one its stream declares, so
// without a cap a few bytes of header cost gigabytes (a 4.7 KB .xz of 4 GiB dictionaries
// took 9 GiB). MaxXZDict is what xz -9, its largest preset, writes; MaxZstdWindow is zstd's
// own default limit (zstd -d refuses more without --long=31 or --memory), what zstd --long
// and --ultra -22 write. gzip holds 32 KiB and bzip2 at most its 900 kB block whatever the
// input says, so they need no cap.
const (
	MaxXZDict     = 64 << 20
	MaxZstdWindow = 128 << 20
)

// smallWindow is the largest dictionary or window decoded beside another input's larger one:
// what xz -6 (its default) and zstd -19 write. See windowGate.
const smallWindow = 8 << 20

// WindowError is a compressed stream that declares a dictionary or window over the most
// nccllog reads.
type WindowError struct {
	Name  string // the input, as messages name it
	Codec string // "xz" or "zstd"
	Cap   int64
	// AfterSmall: a later stream or frame of an input read beside others declared more than
	// smallWindow, where its first declared at most that (see windowGate).
	AfterSmall bool
}

func (e *WindowError) Error() string {
	unit := map[string]string{"xz": "an xz block declares a dictionary", "zstd": "a zstd frame declares a window"}[e.Codec]
	if e.AfterSmall {
		return fmt.Sprintf("%q: %s over %d MiB where its first declared at most that, the most nccllog "+
			"reads beside other inputs (decompress it first: %s -d)", e.Name, unit, e.Cap>>20, e.Codec)
	}
	return fmt.Sprintf("%q: %s over %d MiB, the most nccllog reads (decompress it first: %s -d%s)",
		e.Name, unit, e.Cap>>20, e.Codec, longHint[e.Codec])
}

// longHint is what the codec's own tool needs to decompress a stream over its default limit.
var longHint = map[string]string{"zstd": " --long=31"}

// codecOf names the compression that magic, a file's first bytes, says; "" for plain text.
func codecOf(magic []byte) string {
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		return "gzip"
	case bytes.HasPrefix(magic, zstdMagic):
		return "zstd"
	case len(magic) >= 4 && bytes.HasPrefix(magic, []byte("BZh")) && magic[3] >= '1' && magic[3] <= '9':
		return "bzip2"
	case bytes.HasPrefix(magic, xzMagic):
		return "xz"
	}
	return ""
}

var (
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	xzMagic   = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
)

// decompressor returns br read through the decompressor of codec, with dictionaries and
// windows up to limit; br itself for plain text. name is for errors. An xz or zstd decoder
// is taken from kept where it holds one, and given back to it on Close (kept may be nil).
func decompressor(codec, name string, limit int64, br *bufio.Reader, kept *decoders) (io.Reader, error) {
	switch codec {
	case "gzip":
		return newGzipStream(br)
	case "bzip2":
		return bzip2.NewReader(br), nil
	case "zstd", "xz":
		c := &capped{err: windowErr(name, codec, limit), codec: codec, limit: limit}
		r, err := newCapped(codec, limit, br, kept.take(codec, limit))
		if err != nil {
			return nil, c.mapErr(err)
		}
		c.r = r
		if kept != nil {
			c.keep = kept.keep
		}
		return c, nil
	}
	return br, nil
}

// newCapped returns an xz or zstd decoder of br with limit: old, a decoder kept from an input
// before, reset to br, or a new one.
func newCapped(codec string, limit int64, br *bufio.Reader, old io.Reader) (io.Reader, error) {
	if codec == "xz" {
		if xr, ok := old.(*xz.Reader); ok {
			return xr, xr.Reset(br) // reads the stream header and the first block's
		}
		return xz.NewReader(br, uint32(limit))
	}
	if zr, ok := old.(*zstd.Decoder); ok {
		return zr, zr.Reset(br)
	}
	return zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(uint64(limit)), zstd.WithDecoderMaxWindow(uint64(limit)))
}

// windowErr is the error of a stream over limit: the cap's, or smallWindow's.
func windowErr(name, codec string, limit int64) *WindowError {
	return &WindowError{Name: name, Codec: codec, Cap: limit, AfterSmall: limit < codecCap(codec)}
}

// codecCap is the largest dictionary or window read for codec.
func codecCap(codec string) int64 {
	if codec == "xz" {
		return MaxXZDict
	}
	return MaxZstdWindow
}

// capped reads an xz or zstd decoder, telling a stream over its limit by a WindowError and
// xz data that ends early by io.ErrUnexpectedEOF, as the other decoders do.
type capped struct {
	r     io.Reader
	err   *WindowError
	codec string
	limit int64
	keep  func(codec string, limit int64, r io.Reader) // takes the decoder back on Close; nil: none
}

func (c *capped) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	return n, c.mapErr(err)
}

func (c *capped) mapErr(err error) error {
	switch {
	case errors.Is(err, xz.ErrMemlimit), errors.Is(err, zstd.ErrWindowSizeExceeded),
		errors.Is(err, zstd.ErrDecoderSizeExceeded):
		err = c.err
	case errors.Is(err, xz.ErrBuf):
		err = io.ErrUnexpectedEOF
	}
	return err
}

func (c *capped) Close() error {
	r := c.r
	c.r = nil
	switch {
	case r == nil:
	case c.keep != nil:
		c.keep(c.codec, c.limit, r)
	case c.codec == "zstd":
		r.(*zstd.Decoder).Close()
	}
	return nil
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

package pipeline

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLongLineReadInOneBuffer: a line far longer than a chunk, arriving a little at a time
// (as a pipe or a decompressor gives it), is read into one buffer until its newline. Taking
// a buffer and copying the line so far into it for every few bytes read made such a line
// cost the square of its length: a 10 MB line in a fuzzed zstd input took 5 s.
func TestLongLineReadInOneBuffer(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	input := long + "\nafter\n" + long
	src := &source{r: iotest.HalfReader(strings.NewReader(input))}
	pool := newBufPool(2, 64)
	chunks := make(chan chunk)
	errc := make(chan error, 1)
	go func() { errc <- readChunks(context.Background(), src, "-", 64, pool, chunks) }()
	var got bytes.Buffer
	n := 0
	for ch := range chunks {
		got.Write(ch.data)
		n++
		pool.put(ch.buf)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if got.String() != input {
		t.Fatalf("the chunks hold %d bytes, not the input's %d", got.Len(), len(input))
	}
	if n > 3 || pool.gets > 4 {
		t.Errorf("%d chunks from %d buffers for two long lines and a short one; want at most 3 and 4", n, pool.gets)
	}
}

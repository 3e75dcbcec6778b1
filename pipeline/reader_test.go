package pipeline

import (
	"bytes"
	"context"
	"io"
	"runtime"
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

// endless is a reader of the same byte for ever.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

// TestLineLongerThanMaxLine: a line longer than MaxLine on standard input ends the input with
// an error naming the input and the line, after the lines before it, having held no more than
// about MaxLine bytes of it (an endless line, as /dev/zero gives, took all memory).
func TestLineLongerThanMaxLine(t *testing.T) {
	if testing.Short() {
		t.Skip("the memory bound of lines of 4 x MaxLine runs without -short")
	}
	in := io.MultiReader(strings.NewReader("first\nsecond\n"), io.LimitReader(endless('x'), 4*MaxLine))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := run(Input{Name: "-", Stdin: in}, 2, 1<<20, testCfg{Needs: needAgg})
	runtime.ReadMemStats(&after)
	if got.err == nil || !strings.Contains(got.err.Error(), "<stdin>:3: a line longer than 64 MiB") {
		t.Errorf("error %v, want one naming <stdin>:3 and the limit", got.err)
	}
	if got.res.Lines().Total != 2 {
		t.Errorf("%d lines counted before the long one, want 2", got.res.Lines().Total)
	}
	// Reading up to MaxLine into a buffer that grows by a quarter at a time allocates about
	// five times MaxLine in all; reading the whole 4×MaxLine line, four times that.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*MaxLine {
		t.Errorf("reading a %d MiB line allocated %d MiB; want at most %d MiB", 4*MaxLine>>20, alloc>>20, 8*MaxLine>>20)
	}
}

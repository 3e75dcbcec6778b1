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

// readAll reads input through readChunks with chunks of size bytes from pool, a few KB at a
// time as a pipe gives it, and returns the chunks and the largest buffer capacity that came
// back.
func readAll(t *testing.T, input string, size int, pool *bufPool) (chunks []string, most int) {
	t.Helper()
	src := &source{r: iotest.HalfReader(strings.NewReader(input))}
	out := make(chan chunk)
	errc := make(chan error, 1)
	go func() { errc <- readChunks(context.Background(), src, "-", size, pool, out) }()
	for ch := range out {
		chunks = append(chunks, string(ch.data))
		most = max(most, cap(*ch.buf))
		pool.put(ch.buf)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	return chunks, most
}

// TestFirstBufferSmall: a small input from a pipe is read into a buffer of at most firstBuf
// bytes, not a whole chunk's; a longer one grows that buffer, and is read whole, in chunks of
// whole lines about a chunk long.
func TestFirstBufferSmall(t *testing.T) {
	const size = 1 << 20
	small := strings.Repeat("a line of a small log\n", 1000)
	if chunks, most := readAll(t, small, size, newBufPool(8, size)); strings.Join(chunks, "") != small || most > firstBuf {
		t.Errorf("a %d-byte input: %d chunks, %d bytes in all, the largest buffer %d bytes; want it whole in at most %d",
			len(small), len(chunks), len(strings.Join(chunks, "")), most, firstBuf)
	}
	var b strings.Builder
	b.Grow(size + size/2 + 300)
	xs := strings.Repeat("x", 300)
	for i := 0; b.Len() < size+size/2; i++ {
		b.WriteString(xs[:i%300])
		b.WriteString("\n")
	}
	long := b.String()
	chunks, most := readAll(t, long, size, newBufPool(8, size))
	if strings.Join(chunks, "") != long {
		t.Fatalf("%d chunks of %d bytes in all, not the input's %d", len(chunks), len(strings.Join(chunks, "")), len(long))
	}
	for i, c := range chunks {
		if !strings.HasSuffix(c, "\n") || i < len(chunks)-1 && len(c) < size-300 {
			t.Errorf("chunk %d of %d: %d bytes, ending %q; want whole lines, at least a chunk less a line", i, len(chunks), len(c), c[max(0, len(c)-5):])
		}
	}
	if most < size {
		t.Errorf("the largest buffer holds %d bytes, less than a chunk", most)
	}
}

package pipeline

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/nccllog/nccllog/parser"
)

// A plain file is read by mapping it into memory (where the system allows) rather than by
// copying it with read(2): the copy was a tenth of report's time. Chunks are slices of the
// mapping; once a chunk is merged, its pages are handed back (madvise DONTNEED), so
// resident memory stays at the chunks in flight. A page handed back early only reads again
// from the page cache, and the mapping is removed when the run ends.

// feed makes a run's chunks and takes them back once merged: read into pooled buffers, or
// sliced from the mapped file.
type feed struct {
	// pool bounds the chunks in flight: one being read, one queued and one being parsed per
	// worker, and as many waiting to be merged in order. For a mapped file its buffers are
	// empty, tokens only.
	pool    *bufPool
	mapping []byte
	kept    pageKeeper
}

func newFeed(src *source, jobs, size int, opt Options) *feed {
	f := &feed{kept: pageKeeper{every: opt.dropEvery}}
	if src.file != nil && src.codec == "" && !opt.NoMap {
		f.mapping = mapFile(src.file, src.size)
	}
	if f.mapping != nil {
		size = 0 // tokens only
	}
	if f.kept.every <= 0 {
		f.kept.every = dropEvery
	}
	f.pool = newBufPool(3*jobs+2, size)
	return f
}

// read sends src's chunks to out and closes it.
func (f *feed) read(ctx context.Context, src *source, name string, size int, out chan<- chunk) error {
	if f.mapping == nil {
		return readChunks(ctx, src, name, size, f.pool, out)
	}
	defer faultsPanic()()
	return mapChunks(ctx, f.mapping, name, size, f.pool, out)
}

// release takes a merged chunk back.
func (f *feed) release(d done) {
	if f.mapping != nil {
		off := cap(f.mapping) - cap(d.data) // d.data is mapping[off:end]
		f.kept.merged(f.mapping, off+len(d.data))
	}
	f.pool.put(d.buf)
}

func (f *feed) close() {
	if f.mapping != nil {
		unmapFile(f.mapping)
	}
}

// mapChunks sends data, a mapped file, in chunks of about size bytes cut after a newline,
// numbered in order. A chunk's buffer is a token from pool, which bounds the chunks in
// flight as it bounds read buffers.
func mapChunks(ctx context.Context, data []byte, name string, size int, pool *bufPool, out chan<- chunk) (err error) {
	defer close(out)
	defer catchFault(name, &err)
	for off, seq := 0, 0; off < len(data); seq++ {
		end := chunkEnd(data, off, size)
		token, err := pool.get(ctx)
		if err != nil {
			return err
		}
		select {
		case out <- chunk{seq: seq, data: data[off:end], buf: token, upTo: int64(end)}:
		case <-ctx.Done():
			return ctx.Err()
		}
		off = end
	}
	return nil
}

// chunkEnd returns the end of the chunk of data starting at off: after the last newline
// within size bytes, or after the first one past them for a longer line, or the end.
func chunkEnd(data []byte, off, size int) int {
	end := min(off+size, len(data))
	if end == len(data) {
		return end
	}
	if cut := parser.WholeLines(data[off:end]); cut > 0 {
		return off + cut
	}
	return parser.LineEnd(data, end)
}

// catchFault turns a fault on the mapping into an error naming the file; it must be
// deferred by every goroutine that reads mapped chunks. A file cut shorter while it is
// mapped makes the pages past its new end fault. Any other panic goes on.
func catchFault(name string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	if _, ok := r.(interface{ Addr() uintptr }); ok {
		*err = truncated(name)
		return
	}
	panic(r)
}

func truncated(name string) error {
	return fmt.Errorf("%q: the file was truncated while it was being read", name)
}

// outputFault names the file where writing a mapped chunk failed because its pages went
// away (write(2) says "bad address" where a load would have faulted); other errors are
// returned as they are.
func outputFault(name string, err error) error {
	if err != nil && isFault(err) {
		return truncated(name)
	}
	return err
}

// faultsPanic makes a fault on a bad address in the calling goroutine a panic that
// catchFault can recover, until the returned function is called.
func faultsPanic() (restore func()) {
	old := debug.SetPanicOnFault(true)
	return func() { debug.SetPanicOnFault(old) }
}

// dropEvery is how many merged bytes of a mapped file stay resident before their pages are
// handed back at once: each hand-back is a system call that also flushes the other cores'
// address translations, which cost 3% of report's time when it was done for every 1 MiB
// chunk.
const dropEvery = 4 << 20

// pageKeeper hands back the pages of a mapped file behind the merge, every bytes at a time.
type pageKeeper struct{ from, every int }

// merged says that mapping is merged up to byte end.
func (k *pageKeeper) merged(mapping []byte, end int) {
	if end-k.from >= k.every {
		dropPages(mapping, k.from, end)
		k.from = end
	}
}

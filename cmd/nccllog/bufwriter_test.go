package main

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// callLog is a writer that records the writes it is handed (their bytes one after the other,
// and their lengths) and fails the failAt-th one (from 1; 0: none) after taking took of its
// bytes.
type callLog struct {
	data   []byte
	lens   []int
	failAt int
	took   int
}

var errWrite = errors.New("write failed")

func (c *callLog) Write(p []byte) (int, error) {
	c.data = append(c.data, p...)
	c.lens = append(c.lens, len(p))
	if len(c.lens) == c.failAt {
		return min(c.took, len(p)), errWrite
	}
	return len(p), nil
}

// opResult is what a write (n bytes written) or a flush (flush set) returned.
type opResult struct {
	flush bool
	n     int
	err   error
}

// TestBufWriterAsBufio: a bufWriter hands its writer the same bytes in the same writes, and
// returns the same counts and errors, as a bufio.Writer of its size, over random writes and
// flushes, with writers that fail at any of their writes after taking none, some or all but
// one of its bytes.
func TestBufWriterAsBufio(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for c := range 1000 {
		size := []int{16, 100, 1000}[c%3]
		var ops []int // a write of n bytes, or -1 for a flush
		for range 1 + rng.IntN(40) {
			if rng.IntN(8) == 0 {
				ops = append(ops, -1)
				continue
			}
			ops = append(ops, []int{0, 1, size / 3, size - 1, size, size + 1, 3 * size, rng.IntN(2 * size)}[rng.IntN(8)])
		}
		failAt, took := 0, 0
		if c%5 > 0 {
			failAt = 1 + rng.IntN(8)
			took = []int{0, 1, size / 2}[rng.IntN(3)]
		}
		want, wantLog := replay(ops, func(w *callLog) writeFlusher { return bufio.NewWriterSize(w, size) }, failAt, took)
		got, gotLog := replay(ops, func(w *callLog) writeFlusher { return newBufWriter(w, size) }, failAt, took)
		if !slices.Equal(got, want) || !slices.Equal(gotLog.lens, wantLog.lens) || !bytes.Equal(gotLog.data, wantLog.data) {
			t.Fatalf("size %d, ops %v, failing write %d after %d bytes:\nbufWriter: %v\n  writes %v\nbufio:     %v\n  writes %v",
				size, ops, failAt, took, got, gotLog.lens, want, wantLog.lens)
		}
	}
}

// pattern is what replay writes from: bytes that tell where in a write each came from.
var pattern = func() []byte {
	b := make([]byte, 3*1000+1)
	for i := range b {
		b[i] = byte(' ' + i%95)
	}
	return b
}()

type writeFlusher interface {
	Write([]byte) (int, error)
	Flush() error
}

// replay runs ops on the writer that mk makes over a callLog, and returns what each returned
// and the callLog.
func replay(ops []int, mk func(*callLog) writeFlusher, failAt, took int) ([]opResult, *callLog) {
	log := &callLog{failAt: failAt, took: took}
	w := mk(log)
	results := make([]opResult, 0, len(ops)+1)
	for _, op := range ops {
		if op < 0 {
			results = append(results, opResult{flush: true, err: w.Flush()})
			continue
		}
		n, err := w.Write(pattern[:op])
		results = append(results, opResult{n: n, err: err})
	}
	results = append(results, opResult{flush: true, err: w.Flush()})
	return results, log
}

// TestBufWriterGrows: a bufWriter allocates for what it holds, not its whole size, and never
// more than its size.
func TestBufWriterGrows(t *testing.T) {
	w := newBufWriter(&callLog{}, 256<<10)
	w.Write(make([]byte, 100))
	if c := cap(w.buf); c > minBuf {
		t.Errorf("100 bytes buffered in %d", c)
	}
	for range 300 {
		w.Write(make([]byte, 1000))
		if c := cap(w.buf); c > 256<<10 {
			t.Fatalf("buffer of %d bytes, over its size", c)
		}
	}
}

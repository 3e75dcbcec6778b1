package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/stages"
)

// FuzzLineSplitter: wherever the reader cuts the input into chunks, split (which reads only
// the lines that may be step markers) gives it back byte for byte and counts every line.
func FuzzLineSplitter(f *testing.F) {
	f.Add([]byte("a\r\nb\n\nc"), uint16(1))
	f.Add([]byte("iteration 1/2 | x: 1\nstep: 3 tflops: 1\nz"), uint16(5))
	f.Add([]byte{0, '\n', 0xff, 0xfe, '\n'}, uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		cfg := stages.Config{Needs: stages.NeedLines}
		if compressed(data) {
			// Told by its first bytes to be gzip or zstd: it is decoded, not passed through,
			// and garbage after the magic bytes is a corrupt archive, said so.
			_, err := Run(context.Background(), Input{Name: "-", Stdin: bytes.NewReader(data)},
				Options{Jobs: 2, ChunkSize: 1 + int(cut%512), Config: cfg}, &splitRecorder{})
			if err != nil && !strings.Contains(err.Error(), "gzip") && !strings.Contains(err.Error(), "zstd") {
				t.Fatalf("a corrupt archive's error does not say which format: %v", err)
			}
			return
		}
		for _, size := range []int{1 + int(cut%512), 4096} {
			got := runBytes(t, data, size, cfg)
			if !bytes.Equal(got.split, data) {
				t.Fatalf("chunks of %d bytes: split is not the input", size)
			}
			if got.res.Lines.Total != lineCount(data) {
				t.Fatalf("chunks of %d bytes: %d lines counted, want %d", size, got.res.Lines.Total, lineCount(data))
			}
		}
	})
}

// FuzzChunking: wherever the input is cut into chunks, the same lines come out, counted and
// classed the same, with the same analyses. Slower than FuzzLineSplitter: every run parses.
func FuzzChunking(f *testing.F) {
	samples, _ := filepath.Glob("../../shared/samples/*.log")
	for _, s := range samples {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b[:min(len(b), 4096)], uint16(100))
		}
	}
	f.Add([]byte("a\r\nb\n\nc"), uint16(1))
	f.Add([]byte{0, '\n', 0xff, 0xfe, '\n'}, uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		if compressed(data) {
			return // FuzzLineSplitter holds compressed inputs to their own property
		}
		cfg := stages.Config{Needs: stages.NeedLines | stages.NeedAgg | stages.NeedClasses}
		whole := runBytes(t, data, 1<<20, cfg)
		small := runBytes(t, data, 1+int(cut%512), cfg)
		if !bytes.Equal(whole.split, data) {
			t.Fatalf("split of the whole input is not the input")
		}
		if !bytes.Equal(small.split, data) {
			t.Fatalf("split with chunks of %d bytes is not the input", 1+cut%512)
		}
		if whole.res.Lines.Total != lineCount(data) || small.res.Lines.ByKind != whole.res.Lines.ByKind {
			t.Fatalf("lines: whole %+v, chunked %+v, want total %d", whole.res.Lines, small.res.Lines, lineCount(data))
		}
		if diff := cmp.Diff(whole.res.Agg.Rows(), small.res.Agg.Rows()); diff != "" {
			t.Fatalf("aggregation depends on chunking:\n%s", diff)
		}
	})
}

// compressed reports whether data starts with the gzip or zstd magic bytes.
func compressed(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0x1f, 0x8b}) || bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd})
}

type fuzzOutcome struct {
	res   *Result
	split []byte
}

type splitRecorder struct{ b []byte }

func (s *splitRecorder) Lines(b []byte) error    { s.b = append(s.b, b...); return nil }
func (s *splitRecorder) Call(*stages.Call) error { return nil }

func runBytes(t *testing.T, data []byte, chunk int, cfg stages.Config) fuzzOutcome {
	t.Helper()
	rec := &splitRecorder{}
	res, err := Run(context.Background(), Input{Name: "-", Stdin: bytes.NewReader(data)},
		Options{Jobs: 2, ChunkSize: chunk, Config: cfg}, rec)
	if err != nil {
		t.Fatalf("chunk %d: %v", chunk, err)
	}
	return fuzzOutcome{res, rec.b}
}

package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/internal/sharedtest"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// FuzzLineSplitter: wherever the reader cuts the input into chunks, split (which reads only
// the lines that may be step markers) gives it back byte for byte and counts every line.
// The chunks a mapped file is cut into hold its bytes in order, each up to a newline but
// the last. (Run over a mapped file is held to the lines read(2) gives by TestMappedLikeRead;
// writing a file for every run here would slow the target fivefold.) Its runs borrow the
// package's shared parsers, as RunAll's inputs do: a fresh pair for every run was most of
// the target's cost.
func FuzzLineSplitter(f *testing.F) {
	f.Add([]byte("a\r\nb\n\nc"), uint16(1))
	f.Add([]byte("iteration 1/2 | x: 1\nstep: 3 tflops: 1\nz"), uint16(5))
	f.Add([]byte{0, '\n', 0xff, 0xfe, '\n'}, uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		cfg := testCfg{Needs: needLines}
		if compressed(data) {
			// Told by its first bytes to be gzip or zstd: it is decoded, not passed through,
			// and garbage after the magic bytes is a corrupt archive, said so.
			_, err := Run(context.Background(), Input{Name: "-", Stdin: bytes.NewReader(data)},
				Options{Jobs: 2, ChunkSize: 1 + int(cut%512), Plan: cfg.plan(), Parsers: sharedParsers()}, &splitRecorder{})
			if err != nil && !strings.Contains(err.Error(), "gzip") && !strings.Contains(err.Error(), "zstd") {
				t.Fatalf("a corrupt archive's error does not say which format: %v", err)
			}
			return
		}
		for _, size := range []int{1 + int(cut%512), 4096} {
			rec := &splitRecorder{}
			res, err := Run(context.Background(), Input{Name: "-", Stdin: bytes.NewReader(data)},
				Options{Jobs: 2, ChunkSize: size, Plan: cfg.plan(), Parsers: sharedParsers()}, rec)
			if err != nil {
				t.Fatalf("chunks of %d bytes: %v", size, err)
			}
			if !bytes.Equal(rec.b, data) {
				t.Fatalf("chunks of %d bytes: split is not the input", size)
			}
			if res.Lines().Total != parser.CountLines(data) {
				t.Fatalf("chunks of %d bytes: %d lines counted, want %d", size, res.Lines().Total, parser.CountLines(data))
			}
			checkMapCuts(t, data, size)
		}
	})
}

// checkMapCuts holds the cuts of a mapped file to their definition: in order, without gaps,
// each after the last newline within size bytes, or after the first one past them.
func checkMapCuts(t *testing.T, data []byte, size int) {
	t.Helper()
	for off := 0; off < len(data); {
		end := chunkEnd(data, off, size)
		chunk := data[off:end]
		last := bytes.LastIndexByte(data[off:min(off+size, len(data))], '\n')
		switch {
		case end <= off:
			t.Fatalf("chunk at %d of %d bytes is empty", off, len(data))
		case end < len(data) && chunk[len(chunk)-1] != '\n':
			t.Fatalf("chunk %d:%d does not end after a newline", off, end)
		case last >= 0 && end != off+last+1 && off+size < len(data):
			t.Fatalf("chunk %d:%d, chunks of %d: not cut after its last newline at %d", off, end, size, off+last)
		case last < 0 && bytes.IndexByte(chunk[:len(chunk)-1], '\n') >= 0:
			t.Fatalf("chunk %d:%d holds a line after the long one", off, end)
		}
		off = end
	}
}

// FuzzChunking: wherever the input is cut into chunks, the same lines come out, counted and
// classed the same, with the same analyses. It drives the reader, a worker's analysis and
// the merger in turn, as Run does but on one goroutine and with one parser for all runs:
// Run's goroutines, buffers and fresh parsers cost a millisecond a run, which kept this
// target to a few hundred runs a second. FuzzLineSplitter holds Run itself to the property.
func FuzzChunking(f *testing.F) {
	for _, s := range sharedtest.Optional(f, "samples/*.log") {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)], uint16(100))
	}
	f.Add([]byte("a\r\nb\n\nc"), uint16(1))
	f.Add([]byte{0, '\n', 0xff, 0xfe, '\n'}, uint16(3))
	// Generated logs with a progress line at every step's end, for the selected-steps check.
	for i, progress := range []string{"nemo", "megatron", "torchtitan"} {
		var b bytes.Buffer
		if _, err := gen.Write(&b, gen.Config{Seed: int64(i), Ranks: 2, Steps: 7, Progress: progress}); err == nil {
			f.Add(thinLog(b.Bytes()), uint16(300+i<<9|i<<12|i<<14))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		if compressed(data) {
			return // FuzzLineSplitter holds compressed inputs to their own property
		}
		data = data[:min(len(data), maxFuzzInput)]
		p, err := fuzzParser()
		if err != nil {
			t.Fatal(err)
		}
		cfg := testCfg{Needs: needLines | needAgg | needClasses}
		whole := chunkBytes(t, p, data, len(data)+1, &cfg)
		small := chunkBytes(t, p, data, 1+int(cut%512), &cfg)
		if !bytes.Equal(whole.split, data) {
			t.Fatalf("split of the whole input is not the input")
		}
		if !bytes.Equal(small.split, data) {
			t.Fatalf("split with chunks of %d bytes is not the input", 1+cut%512)
		}
		if whole.res.Lines().Total != parser.CountLines(data) || small.res.Lines().ByKind != whole.res.Lines().ByKind {
			t.Fatalf("lines: whole %+v, chunked %+v, want total %d", whole.res.Lines(), small.res.Lines(), parser.CountLines(data))
		}
		if diff := cmp.Diff(aggOf(whole.res).Rows(), aggOf(small.res).Rows()); diff != "" {
			t.Fatalf("aggregation depends on chunking:\n%s", diff)
		}
		checkSelectedOnly(t, p, data, cut)
	})
}

// checkSelectedOnly: where only the selected steps' lines are read (stats, hist, agg, report
// and calls with --steps), the analyses are those of reading every line. The step range
// (from 0-7, up to 3 more) and the boundary come from cut's bits above the chunk size.
func checkSelectedOnly(t *testing.T, p *parser.Parser, data []byte, cut uint16) {
	t.Helper()
	from := int64(cut >> 9 & 7)
	sel := testCfg{Steps: &stages.StepRange{From: from, To: from + int64(cut>>12&3)},
		Boundary: stages.Boundary(cut >> 14 & 1), Needs: needAgg}
	full := sel
	full.Needs |= needClasses
	if !sel.plan().ReadsSelectedOnly() || full.plan().ReadsSelectedOnly() {
		t.Fatal("ReadsSelectedOnly: want true without --strict and false with it")
	}
	part := chunkBytes(t, p, data, 1+int(cut%512), &sel)
	all := chunkBytes(t, p, data, len(data)+1, &full)
	what := fmt.Sprintf("steps %d-%d, boundary %v, chunks of %d bytes", sel.Steps.From, sel.Steps.To, sel.Boundary, 1+cut%512)
	if part.res.Lines().Total != all.res.Lines().Total {
		t.Fatalf("%s: %d lines counted reading the selected steps, %d reading all", what, part.res.Lines().Total, all.res.Lines().Total)
	}
	if diff := cmp.Diff(aggOf(all.res).Rows(), aggOf(part.res).Rows()); diff != "" {
		t.Fatalf("%s: aggregation (-all lines +selected steps):\n%s", what, diff)
	}
	if diff := cmp.Diff(stepsOf(all.res).Points(), stepsOf(part.res).Points()); diff != "" {
		t.Fatalf("%s: steps (-all lines +selected steps):\n%s", what, diff)
	}
}

// fuzzParser and fuzzMarkers are the parsers every run of the fuzz targets shares (the
// second looks ahead for step markers where only the selected steps are read).
var (
	fuzzParser  = sync.OnceValues(parser.NewParser)
	fuzzMarkers = sync.OnceValues(parser.NewParser)
)

// chunkBytes reads data in chunks of size bytes through readChunks, stages.Read and a Merger.
func chunkBytes(t *testing.T, p *parser.Parser, data []byte, size int, cfg *testCfg) fuzzOutcome {
	t.Helper()
	markers, err := fuzzMarkers()
	if err != nil {
		t.Fatal(err)
	}
	// A source with no decoder and no cancelable read-ahead: what Run reads standard input
	// through is FuzzLineSplitter's to hold; its 192 KiB of buffers were half of a small run.
	src := &source{name: "-", r: bytes.NewReader(data)}
	pool := newBufPool(2, size)
	chunks := make(chan chunk)
	readErr := make(chan error, 1)
	go func() { readErr <- readChunks(context.Background(), src, "-", size, pool, chunks) }()
	rec := &splitRecorder{}
	plan := fuzzPlans.of(*cfg)
	m := stages.NewMerger(plan, "-", rec)
	for ch := range chunks {
		c := stages.Read(plan, ch.data, p, markers)
		if err := m.Add(c, ch.data); err != nil {
			t.Fatal(err)
		}
		c.Release() // as Run does: the next chunk of the plan reuses its Sets
		pool.put(ch.buf)
	}
	if err := <-readErr; err != nil {
		t.Fatal(err)
	}
	if err := m.Finish(); err != nil {
		t.Fatal(err)
	}
	return fuzzOutcome{stages.InputResult("-", m.Total, parser.Stats{}), rec.b}
}

// maxFuzzInput is how much of an input FuzzChunking and FuzzWaitCap read: the rest is cut
// off, so that every run checks its property on what it reads. Their chunk sizes and caps
// are at most 512 bytes, so 4 KiB is eight chunks or more, and a longer input repeats the
// cases a shorter one has at many times the cost. (libFuzzer's default -max_len is 4096.)
const maxFuzzInput = 4 << 10

// fuzzPlans are the plans the fuzz targets' reads share, one for each configuration, as
// RunAll's inputs share one: the chunks a plan hands back are reused by its next read.
var fuzzPlans = &planCache{m: map[string]*stages.Plan{}}

type planCache struct {
	mu sync.Mutex
	m  map[string]*stages.Plan
}

// of returns the plan of cfg, made on first use.
func (c *planCache) of(cfg testCfg) *stages.Plan {
	key := fmt.Sprint(cfg.Needs, cfg.Boundary)
	if cfg.Steps != nil {
		key += fmt.Sprint(*cfg.Steps)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.m[key]; ok {
		return p
	}
	p := cfg.plan()
	c.m[key] = p
	return p
}

// thinLog keeps a generated log's Init COMPLETE lines, every progress line and one call in
// forty: every step is there, in a twentieth of the bytes, 3.6-5 KB for seven steps of two
// ranks. (Its other set-up lines, channels and transports, say nothing about steps or calls.)
func thinLog(b []byte) []byte {
	var out []byte
	calls := 0
	for len(b) > 0 {
		n := bytes.IndexByte(b, '\n') + 1
		if n == 0 {
			n = len(b)
		}
		line := b[:n]
		b = b[n:]
		switch {
		case bytes.Contains(line, []byte(" opCount ")):
			calls++
			if calls%40 != 1 {
				continue
			}
		case bytes.Contains(line, []byte("NCCL INFO")) && !bytes.Contains(line, []byte("Init COMPLETE")):
			continue
		}
		out = append(out, line...)
	}
	return out
}

// compressed reports whether data starts with the gzip or zstd magic bytes.
func compressed(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0x1f, 0x8b}) || bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd})
}

type fuzzOutcome struct {
	res   *stages.Result
	split []byte
}

type splitRecorder struct{ b []byte }

func (s *splitRecorder) Lines(b []byte) error    { s.b = append(s.b, b...); return nil }
func (s *splitRecorder) Call(*stages.Call) error { return nil }

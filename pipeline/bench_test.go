package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// benchLog is a generated 16-rank log of about 32 MiB, made once per benchmark binary.
func benchLog(b *testing.B) []byte {
	b.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Seed: 1, Ranks: 16, Size: 32 << 20, Noise: true}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkEachLine is line splitting alone.
func BenchmarkEachLine(b *testing.B) {
	data := benchLog(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		lines := parser.NewLines(data)
		for _, _, _, ok := lines.Next(); ok; _, _, _, ok = lines.Next() {
			n++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/line")
}

// BenchmarkWorker is what one worker does to a chunk: split lines, parse, run the stages.
func BenchmarkWorker(b *testing.B) {
	data := benchLog(b)
	plan := testCfg{Needs: needAgg}.plan()
	p, err := parser.NewParser()
	if err != nil {
		b.Fatal(err)
	}
	var lines int64
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for off := 0; off < len(data); {
			end := off + parser.WholeLines(data[off:min(off+DefaultChunkSize, len(data))])
			if end == off {
				end = len(data)
			}
			lines += stages.Read(plan, data[off:end], p, nil).LineCount()
			off = end
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(lines), "ns/line")
}

type nopOut struct{}

func (nopOut) Lines([]byte) error      { return nil }
func (nopOut) Call(*stages.Call) error { return nil }

// BenchmarkRun is the whole pipeline (report's work) over a file, with 1 and 2 workers: a
// generated 32 MiB log, or the log named by $NCCLLOG_BENCH_LOG (a real one, or a larger one
// where fixed costs such as the grammar's first readings of each shape must not weigh).
func BenchmarkRun(b *testing.B) {
	path := os.Getenv("NCCLLOG_BENCH_LOG")
	if path == "" {
		path = filepath.Join(b.TempDir(), "bench.log")
		if err := os.WriteFile(path, benchLog(b), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2} {
		b.Run("jobs="+strconv.Itoa(jobs), func(b *testing.B) {
			b.SetBytes(st.Size())
			for i := 0; i < b.N; i++ {
				_, err := Run(context.Background(), Input{Name: path},
					Options{Jobs: jobs, Plan: testCfg{Needs: needAgg}.plan()}, nopOut{})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

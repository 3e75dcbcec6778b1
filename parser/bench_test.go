package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/internal/sharedtest"
)

// benchLines are the lines of the larger golden log of the shared material (a mix of
// collective, init, progress and other lines); without it the benchmark is skipped.
func benchLines(b *testing.B) ([][]byte, int64) {
	b.Helper()
	data, err := os.ReadFile(filepath.Join(sharedtest.Dir(b), "golden", "fsdp-8rank", "input.log"))
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	return lines, int64(len(data))
}

// BenchmarkParser is the hot path: every line of a real-shaped log through Parser.Parse.
func BenchmarkParser(b *testing.B) {
	lines, size := benchLines(b)
	p, err := NewParser()
	if err != nil {
		b.Fatal(err)
	}
	var l Line
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, line := range lines {
			p.Parse(line, &l)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/line")
}

// BenchmarkScanCollective is one collective line through the scanner alone.
func BenchmarkScanCollective(b *testing.B) {
	line := []byte("gpu-node-00:52445:52445 [0] NCCL INFO AllGather: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 9 op 0 root 0 comm 0x55d01db208e0 [nranks=8] stream 0x55d4c1f3a2b0")
	s := newScanner()
	var l Line
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ok := s.scan(line, &l); !ok {
			b.Fatal("scanner deferred")
		}
	}
}

// BenchmarkGrammarCollective is the same line through the participle grammar, for scale.
func BenchmarkGrammarCollective(b *testing.B) {
	line := []byte("gpu-node-00:52445:52445 [0] NCCL INFO AllGather: opCount 1a3 sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 9 op 0 root 0 comm 0x55d01db208e0 [nranks=8] stream 0x55d4c1f3a2b0")
	g, err := NewGrammar()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g.Parse(line)
	}
}

// BenchmarkScanProgress is a NeMo progress line through the Parser.
func BenchmarkParseProgress(b *testing.B) {
	line := []byte("Training epoch 0, iteration 45/59 | lr: 4.600e-04 | global_batch_size: 128 | global_step: 45 | reduced_train_loss: 8.75 | train_step_timing in s: 2.376 | TFLOPS_per_GPU: 168.3 | consumed_samples: 5888")
	p, err := NewParser()
	if err != nil {
		b.Fatal(err)
	}
	var l Line
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p.Parse(line, &l)
	}
}

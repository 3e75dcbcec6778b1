package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// FuzzWaitCap: with a cap of 1 to 256 bytes on what waits for a step, split and calls with
// and without a step selection write what a line-by-line pass selects, reading a file (read
// ahead) and standard input (spilled), at any chunk size. cut's bits give the chunk size (low
// 8), the cap (next 8, with the chunk size) and the selection.
func FuzzWaitCap(f *testing.F) {
	f.Add([]byte("a\nTraining epoch 0, iteration 1/9 | x\nb"), uint16(3))
	for i, progress := range []string{"nemo", "megatron", "torchtitan"} {
		var b bytes.Buffer
		if _, err := gen.Write(&b, gen.Config{Seed: int64(i), Ranks: 2, Steps: 7, Progress: progress}); err == nil {
			f.Add(thinLog(b.Bytes()), uint16(40+i<<8|i<<13))
		}
	}
	f.Fuzz(waitCapCase)
}

// waitCapCase is one run of FuzzWaitCap.
func waitCapCase(t *testing.T, data []byte, cut uint16) {
	if compressed(data) {
		return
	}
	data = data[:min(len(data), maxFuzzInput)]
	p, err := fuzzParser()
	if err != nil {
		t.Fatal(err)
	}
	cfg := testCfg{Boundary: stages.BoundaryEnd, Needs: needAll}
	if from := int64(cut >> 13); from < 6 {
		cfg.Steps = rangeOf(from, from+1)
	}
	name := tempLog(t, data)
	w := oracle(parseWith(p, data), name, cfg)
	opt := Options{Jobs: 1 + int(cut>>12&1), ChunkSize: 1 + int(cut&0xff), waitCap: 1 + int(cut>>8&0xff)}
	for _, in := range []Input{{Name: name}, {Name: "-", Stdin: bytes.NewReader(data)}} {
		what := fmt.Sprintf("%s %s chunk=%d cap=%d", in.DisplayName(), cfgName(cfg), opt.ChunkSize, opt.waitCap)
		got := runOpt(in, opt, cfg)
		if got.err != nil {
			t.Fatalf("%s: %v", what, got.err)
		}
		checkSplit(t, what, got.split, w.split)
		checkCalls(t, what, got.calls, named(w, in.DisplayName()).calls)
		if got.res.Lines().Total != w.lines.Total {
			t.Errorf("%s: %d lines counted, want %d", what, got.res.Lines().Total, w.lines.Total)
		}
	}
}

// parseWith is parseAll with the parser p.
func parseWith(p *parser.Parser, data []byte) []parsedLine {
	var out []parsedLine
	for len(data) > 0 {
		n := bytes.IndexByte(data, '\n') + 1
		if n == 0 {
			n = len(data)
		}
		pl := parsedLine{raw: data[:n]}
		p.Parse(bytes.TrimSuffix(data[:n], []byte("\n")), &pl.p)
		out = append(out, pl)
		data = data[n:]
	}
	return out
}

// tempLog writes data to a new file that is removed when t ends. A file of its own rather
// than one in t.TempDir: removing a directory took a quarter of a run's time.
func tempLog(t *testing.T, data []byte) string {
	f, err := os.CreateTemp("", "nccllog-fuzz-*.log")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(f.Name()) })
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return f.Name()
}

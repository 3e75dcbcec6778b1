package stages_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// fuzzParsed is each of fuzzLines as the parser reads it, worked out once: the parser has
// fuzz targets of its own, and parsing every line of every run made each run slow enough for
// the fuzzer's minimizer to stall on long inputs.
var fuzzParsed = sync.OnceValues(func() (*[256]parser.Line, error) {
	p, err := parser.NewParser()
	if err != nil {
		return nil, err
	}
	var t [256]parser.Line
	for i, line := range fuzzLines {
		p.Parse(line, &t[i])
	}
	return &t, nil
})

// fuzzMaxLines bounds a fuzz log: splitter faults show in a few dozen lines, and long inputs
// only slow the fuzzer down.
const fuzzMaxLines = 1024

// fuzzLines is the line each byte value stands for: markers with small, repeating, unordered
// step numbers, collective calls, other text and blank lines.
var fuzzLines = func() (t [256][]byte) {
	for i := range t {
		b := byte(i)
		switch b % 4 {
		case 0:
			t[i] = fmt.Appendf(nil, "Training epoch 0, iteration %d/9 | train_step_timing in s: 1.5 | TFLOPS_per_GPU: 10", (b/4)%8)
		case 1:
			t[i] = fmt.Appendf(nil, "h:1:1 [0] NCCL INFO AllReduce: opCount %x sendbuff 0x1 recvbuff 0x2 count %d datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6", b, b)
		case 2:
			t[i] = []byte("some other text")
		}
	}
	return t
}()

// fuzzLog turns fuzz bytes into a log: its lines and how the parser reads each.
func fuzzLog(data []byte, parsed *[256]parser.Line) ([][]byte, []*parser.Line) {
	data = data[:min(len(data), fuzzMaxLines)]
	lines := make([][]byte, len(data))
	reads := make([]*parser.Line, len(data))
	for i, b := range data {
		lines[i], reads[i] = fuzzLines[b], &parsed[b]
	}
	return lines, reads
}

// refLabels is the step of every line, worked out line by line from the definition.
func refLabels(reads []*parser.Line, b stages.Boundary) []int64 {
	labels := make([]int64, len(reads))
	last := int64(-1)
	for i, l := range reads {
		if l.Kind == parser.KindProgress {
			last = l.Prog.Step
		}
		labels[i] = last
	}
	if b == stages.BoundaryStart {
		return labels
	}
	next := int64(-1)
	for i := len(reads) - 1; i >= 0; i-- {
		if l := reads[i]; l.Kind == parser.KindProgress {
			next = l.Prog.Step
		}
		labels[i] = next
	}
	return labels
}

type fuzzOut struct {
	split []byte
	calls []stages.Call
}

func (o *fuzzOut) Lines(b []byte) error      { o.split = append(o.split, b...); return nil }
func (o *fuzzOut) Call(c *stages.Call) error { o.calls = append(o.calls, *c); return nil }

// FuzzStepSplitter: cut into chunks anywhere, the splitter selects exactly the lines and
// labels exactly the calls that the line-by-line definition of the steps gives.
func FuzzStepSplitter(f *testing.F) {
	f.Add([]byte{0, 1, 2, 4, 1, 3, 8, 1, 1, 0, 5}, uint8(2), uint8(1), uint8(3), false)
	f.Add([]byte{1, 1, 4, 1, 4, 1, 9}, uint8(1), uint8(1), uint8(1), true)
	f.Fuzz(func(t *testing.T, data []byte, every, from, span uint8, start bool) {
		parsed, err := fuzzParsed()
		if err != nil {
			t.Fatal(err)
		}
		lines, reads := fuzzLog(data, parsed)
		b := stages.BoundaryEnd
		if start {
			b = stages.BoundaryStart
		}
		rng := stages.StepRange{int64(from % 8), int64(from%8 + span%4)}
		cfg := stages.Config{Steps: &rng, Boundary: b}
		got := feedChunks(lines, reads, testPlan(cfg, needLines|needCalls), 1+int(every%9))
		want := expectSplit(lines, reads, refLabels(reads, b), &cfg)
		if !bytes.Equal(got.split, want.split) {
			t.Fatalf("split (%v, steps %v, chunks of %d lines):\ngot  %q\nwant %q", b, rng, 1+every%9, got.split, want.split)
		}
		if diff := cmp.Diff(want.calls, got.calls); diff != "" {
			t.Fatalf("calls (-want +got):\n%s", diff)
		}
	})
}

// feedChunks feeds the lines through Chunk and Merger, n lines a chunk.
func feedChunks(lines [][]byte, reads []*parser.Line, plan *stages.Plan, n int) *fuzzOut {
	out := &fuzzOut{}
	m := stages.NewMerger(plan, "f", out)
	for i := 0; i < len(lines); i += n {
		var data []byte
		c := stages.NewChunk(plan)
		for j := i; j < min(i+n, len(lines)); j++ {
			off := int64(len(data))
			data = append(append(data, lines[j]...), '\n')
			c.Add(lines[j], off, int64(len(data)), reads[j])
		}
		c.Finish()
		m.Add(c, data)
	}
	m.Finish()
	return out
}

func expectSplit(lines [][]byte, reads []*parser.Line, labels []int64, cfg *stages.Config) *fuzzOut {
	out := &fuzzOut{}
	for i, line := range lines {
		if !cfg.Selects(labels[i]) {
			continue
		}
		out.split = append(append(out.split, line...), '\n')
		if l := reads[i]; l.Kind == parser.KindCollective {
			out.calls = append(out.calls, stages.Call{File: "f", Line: int64(i + 1), Step: labels[i], Rank: -1, Env: l.Env, Coll: l.Coll})
		}
	}
	return out
}

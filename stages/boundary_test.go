package stages_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
	"github.com/nccllog/nccllog/stages/steps"
)

// hline is one line of a hand-made log and what the test knows it is.
type hline struct {
	text      string
	step      int64 // the step of a progress marker, -1 for other lines
	count     int64 // the count of a collective line (unique in a log), 0 for other lines
	malformed bool
	timeS     float64
}

func markerLine(step int64, timeS float64) hline {
	return hline{text: fmt.Sprintf("Training epoch 0, iteration %d/9 | train_step_timing in s: %g | TFLOPS_per_GPU: 100",
		step, timeS), step: step, timeS: timeS}
}

func collLine(count int64) hline {
	return hline{text: fmt.Sprintf("h:1:1 [0] NCCL INFO AllReduce: opCount %x sendbuff 0x1 recvbuff 0x2 count %d "+
		"datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6", count, count), step: -1, count: count}
}

func otherLine(s string) hline { return hline{text: s, step: -1} }

// brokenLine is the tail of a collective line whose head was cut off: malformed.
func brokenLine() hline {
	return hline{text: "count 4 datatype 7 op 0 root 0 comm 0x5 [nranks=2] stream 0x6", step: -1, malformed: true}
}

// handLog has markers 0-9 in order with zero to four lines between them, and lines before the
// first marker and after the last.
func handLog(seed uint64) []hline {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ls []hline
	count := int64(0)
	fill := func(n int) {
		for range n {
			switch rng.IntN(6) {
			case 0:
				ls = append(ls, otherLine("application output"))
			case 1:
				ls = append(ls, otherLine(""))
			case 2:
				ls = append(ls, brokenLine())
			default:
				count++
				ls = append(ls, collLine(count))
			}
		}
	}
	fill(1 + rng.IntN(4))
	for s := range int64(10) {
		ls = append(ls, markerLine(s, 1+float64(s)/4))
		fill(rng.IntN(5))
	}
	fill(1 + rng.IntN(3))
	return ls
}

// callAt is the part of a Call that the step tests look at.
type callAt struct{ Line, Step, Count int64 }

// expected works out from the log's make-up what a run over it must give.
type expected struct {
	split    string
	calls    []callAt
	rows     []agg.AggRow
	points   []steps.StepPoint
	problems []int64
}

func expect(ls []hline, cfg stages.Config) expected {
	stepAt := make([]int64, len(ls))
	cur := int64(-1)
	if cfg.Boundary == stages.BoundaryEnd {
		// A line belongs to the first marker at or after it.
		for i := len(ls) - 1; i >= 0; i-- {
			if ls[i].step >= 0 {
				cur = ls[i].step
			}
			stepAt[i] = cur
		}
	} else {
		// A line belongs to the last marker at or before it.
		for i := range ls {
			if ls[i].step >= 0 {
				cur = ls[i].step
			}
			stepAt[i] = cur
		}
	}
	var e expected
	var b strings.Builder
	rows := agg.NewAgg()
	e.calls, e.points, e.problems = []callAt{}, []steps.StepPoint{}, []int64{}
	for i, l := range ls {
		// With steps selected, the lines of other steps are counted unread: their
		// malformed lines are not listed.
		if l.malformed && (cfg.Steps == nil || stepAt[i] >= 0 && cfg.Steps.Has(stepAt[i])) {
			e.problems = append(e.problems, int64(i+1))
		}
		if l.step >= 0 && (cfg.Steps == nil || cfg.Steps.Has(l.step)) {
			e.points = append(e.points, steps.StepPoint{Step: l.step, Lines: 1, TimeS: l.timeS, TFLOPs: 100,
				HasTime: true, HasTFLOPs: true, Framework: "nemo"})
		}
		if cfg.Steps != nil && (stepAt[i] < 0 || !cfg.Steps.Has(stepAt[i])) {
			continue
		}
		b.WriteString(l.text + "\n")
		if l.count > 0 {
			e.calls = append(e.calls, callAt{int64(i + 1), stepAt[i], l.count})
			rows.Add("AllReduce", l.count, 7)
		}
	}
	e.split, e.rows = b.String(), rows.Rows()
	return e
}

// recorder is an Out that keeps copies of what it gets.
type recorder struct {
	split []byte
	calls []stages.Call
}

func (r *recorder) Lines(b []byte) error      { r.split = append(r.split, b...); return nil }
func (r *recorder) Call(c *stages.Call) error { r.calls = append(r.calls, *c); return nil }

// cutChunks cuts data as the pipeline's reader does: after the last newline in the next size
// bytes, or after the first newline past them when a line is longer.
func cutChunks(data []byte, size int) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		n := len(data)
		if size < n {
			n = bytes.LastIndexByte(data[:size], '\n') + 1
			if n == 0 {
				n = bytes.IndexByte(data[size:], '\n') + 1 + size
				if n == size {
					n = len(data)
				}
			}
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// runChunks feeds chunks through Chunk and Merger as the pipeline does, with the lines'
// readings looked up in parsed (one per line of the whole input, in order).
func runChunks(t *testing.T, chunks [][]byte, parsed []parser.Line, plan *stages.Plan) (*stages.Merger, *recorder) {
	t.Helper()
	rec := &recorder{}
	m := stages.NewMerger(plan, "hand.log", rec)
	n := 0
	for _, data := range chunks {
		c := stages.NewChunk(plan)
		for off := 0; off < len(data); {
			end := bytes.IndexByte(data[off:], '\n') + 1 + off
			if end == off {
				end = len(data)
			}
			c.Add(bytes.TrimSuffix(data[off:end], []byte("\n")), int64(off), int64(end), &parsed[n])
			n++
			off = end
		}
		c.Finish()
		if err := m.Add(c, data); err != nil {
			t.Fatal(err)
		}
		c.Release() // as the pipeline does: the next chunk reuses its Sets
	}
	if err := m.Finish(); err != nil {
		t.Fatal(err)
	}
	if n != len(parsed) {
		t.Fatalf("chunks hold %d lines, want %d", n, len(parsed))
	}
	return m, rec
}

// TestStepBoundariesEveryCut runs hand-made logs through Chunk and Merger cut into chunks of
// every size from 16 to 400 bytes (every line on its own, pairs, markers first and last in a
// chunk, ...) for many step selections, both boundaries and every combination of needs. The
// split text, every call's line and step, the aggregation, the step points and the line
// numbers of malformed lines must come out as if there were no chunks. With -short, every
// chunk size from 16 to 64 bytes and every fifth size after.
func TestStepBoundariesEveryCut(t *testing.T) {
	t.Parallel() // independent of the other tests: its own parser and data
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	ranges := []*stages.StepRange{nil, {0, 0}, {9, 9}, {3, 5}, {0, 9}, {4, 100}, {10, 20}, {5, 5}}
	failures := 0
	for seed := uint64(1); seed <= shortSeeds(3); seed++ {
		ls := handLog(seed)
		var log strings.Builder
		parsed := make([]parser.Line, len(ls))
		for i, l := range ls {
			log.WriteString(l.text + "\n")
			p.Parse([]byte(l.text), &parsed[i])
		}
		data := []byte(log.String())
		for _, sr := range ranges {
			for _, b := range []stages.Boundary{stages.BoundaryEnd, stages.BoundaryStart} {
				cfg := stages.Config{Steps: sr, Boundary: b}
				e := expect(ls, cfg)
				for size := 16; size <= 400 && failures < 10; size += shortStride(size) {
					chunks := cutChunks(data, size)
					// Everything, and one of the other six combinations of needs in turn.
					for _, needs := range []needs{needAgg | needCalls | needLines, needs(1 + size%6)} {
						what := fmt.Sprintf("seed %d steps %v %s size %d needs %03b", seed, sr, b, size, needs)
						m, rec := runChunks(t, chunks, parsed, testPlan(cfg, needs))
						if !checkRun(t, what, m, rec, e, needs) {
							failures++
						}
					}
				}
			}
		}
	}
}

// shortStride is the step from chunk size size to the next one TestStepBoundariesEveryCut
// tries: every size with go test ./..., every thirteenth past 32 bytes with -short.
func shortStride(size int) int {
	if testing.Short() && size >= 32 {
		return 13
	}
	return 1
}

// shortSeeds is how many of its n hand-written logs TestStepBoundariesEveryCut cuts: all of
// them with go test ./..., the first with -short.
func shortSeeds(n uint64) uint64 {
	if testing.Short() {
		return 1
	}
	return n
}

func checkRun(t *testing.T, what string, m *stages.Merger, rec *recorder, e expected, needs needs) bool {
	t.Helper()
	ok := true
	fail := func(format string, args ...any) {
		t.Errorf(what+": "+format, args...)
		ok = false
	}
	wantSplit := e.split
	if needs&needLines == 0 {
		wantSplit = ""
	}
	if string(rec.split) != wantSplit {
		fail("split\n got %q\nwant %q", rec.split, wantSplit)
	}
	got := []callAt{}
	for _, c := range rec.calls {
		got = append(got, callAt{c.Line, c.Step, c.Coll.Count})
	}
	wantCalls := e.calls
	if needs&needCalls == 0 {
		wantCalls = []callAt{}
	}
	if diff := stagetest.DiffSlices(wantCalls, got); diff != "" {
		fail("calls (-want +got):\n%s", diff)
	}
	if _, ok := stages.Part[*agg.AggPart](m.Total); needs&needAgg == 0 {
		if ok {
			fail("an Agg without the agg stage")
		}
	} else if diff := stagetest.DiffSlices(e.rows, agg.AggOf(m.Total).Rows()); diff != "" {
		fail("Agg.Rows (-want +got):\n%s", diff)
	}
	if diff := stagetest.DiffSlices(e.points, steps.StepsOf(m.Total).Points()); diff != "" {
		fail("Steps.Points (-want +got):\n%s", diff)
	}
	problems := []int64{}
	for _, p := range stages.LinesOf(m.Total).Problems {
		if p.File != "hand.log" {
			fail("problem %+v: file %q", p, p.File)
		}
		problems = append(problems, p.Line)
	}
	if diff := stagetest.DiffSlices(e.problems, problems); diff != "" {
		fail("problem lines (-want +got):\n%s", diff)
	}
	return ok
}

// TestCutChunks checks the test's own chunker: whole lines, in order, nothing lost.
func TestCutChunks(t *testing.T) {
	data := []byte("aaaa\nbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\ncc\nd")
	for size := 1; size <= len(data)+1; size++ {
		chunks := cutChunks(data, size)
		if got := bytes.Join(chunks, nil); !bytes.Equal(got, data) {
			t.Fatalf("size %d: chunks join to %q", size, got)
		}
		for i, c := range chunks[:len(chunks)-1] {
			if c[len(c)-1] != '\n' || len(c) > size && bytes.Count(c, []byte("\n")) > 1 {
				t.Errorf("size %d: chunk %d %q", size, i, c)
			}
		}
	}
}

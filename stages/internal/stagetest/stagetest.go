// Package stagetest holds what the families' tests share: reading lines the way a run does,
// restoring a partial from JSON, and measuring retained heap.
package stagetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"runtime"
	"slices"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// restoreJSON restores r from data as Decode would, within the limits of a small partial.
func RestoreJSON(r stages.Restorer, data []byte) error {
	return r.Restore(json.NewDecoder(bytes.NewReader(data)), stages.NewLimits(int64(len(data))))
}

// retained is how many heap bytes the value build returns keeps alive.
func Retained(build func() any) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// parsedText is a line and how it parses.
type ParsedText struct {
	Text []byte
	P    parser.Line
}

// parseLines cuts data into lines (up to 1 MiB each) and parses each with p.
func ParseLines(p *parser.Parser, data []byte) []ParsedText {
	out := SplitLines(data)
	for i := range out {
		p.Parse(out[i].Text, &out[i].P)
	}
	return out
}

// splitLines cuts data into lines, up to 1 MiB each, not yet parsed.
func SplitLines(data []byte) []ParsedText {
	var out []ParsedText
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, ParsedText{Text: slices.Clone(sc.Bytes())})
	}
	return out
}

// diffSlices is gocmp.Diff, made cheap for the common case of equal slices.
func DiffSlices[T comparable](want, got []T) string {
	if slices.Equal(want, got) {
		return ""
	}
	return gocmp.Diff(want, got)
}

// progress makes a progress line's reading; time and TFLOP/s < 0 mean not printed.
func Progress(step int64, timeS, tflops float64) parser.Progress {
	p := parser.Progress{Framework: "nemo", Step: step}
	if timeS >= 0 {
		p.TimeS, p.HasTime = timeS, true
	}
	if tflops >= 0 {
		p.TFLOPs, p.HasTFLOPs = tflops, true
	}
	return p
}

var (
	ShapeOps   = []parser.Op{"AllReduce", "AllGather", "ReduceScatter", "Broadcast"}
	ShapeTypes = []parser.Datatype{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
)

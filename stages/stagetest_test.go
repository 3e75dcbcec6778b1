package stages

import (
	"bufio"
	"bytes"
	"encoding/json"
	"runtime"
	"slices"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/nccllog/nccllog/parser"
)

// restoreJSON restores r from data as Decode would, within the limits of a small partial.
func restoreJSON(r Restorer, data []byte) error {
	return r.Restore(json.NewDecoder(bytes.NewReader(data)), NewLimits(int64(len(data))))
}

// retained is how many heap bytes the value build returns keeps alive.
func retained(build func() any) int64 {
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
type parsedText struct {
	text []byte
	p    parser.Line
}

// parseLines cuts data into lines (up to 1 MiB each) and parses each with p.
func parseLines(p *parser.Parser, data []byte) []parsedText {
	out := splitLines(data)
	for i := range out {
		p.Parse(out[i].text, &out[i].p)
	}
	return out
}

// splitLines cuts data into lines, up to 1 MiB each, not yet parsed.
func splitLines(data []byte) []parsedText {
	var out []parsedText
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, parsedText{text: slices.Clone(sc.Bytes())})
	}
	return out
}

// diffSlices is gocmp.Diff, made cheap for the common case of equal slices.
func diffSlices[T comparable](want, got []T) string {
	if slices.Equal(want, got) {
		return ""
	}
	return gocmp.Diff(want, got)
}

// progress makes a progress line's reading; time and TFLOP/s < 0 mean not printed.
func progress(step int64, timeS, tflops float64) parser.Progress {
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
	shapeOps   = []parser.Op{"AllReduce", "AllGather", "ReduceScatter", "Broadcast"}
	shapeTypes = []parser.Datatype{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
)

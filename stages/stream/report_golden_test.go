package stream_test

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
	"github.com/nccllog/nccllog/stages/internal/goldentest"
	"github.com/nccllog/nccllog/stages/stream"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// collect keeps what a run streams: the rows of its calls, and split's lines.
type collect struct {
	name  string
	rows  []stream.CallRow
	lines bytes.Buffer
}

func (c *collect) Lines(b []byte) error { c.lines.Write(b); return nil }

func (c *collect) Call(call *stages.Call) error {
	c.rows = append(c.rows, stream.RowOf(c.name, call))
	return nil
}

// streamGolden is what the stream family writes of a step: its first calls as the exports
// write them, how many there are with their bytes, and how many lines and bytes split passes
// on.
type streamGolden struct {
	FirstCalls []stream.CallRow `json:"first_calls"`
	Calls      int              `json:"calls"`
	CallBytes  int64            `json:"call_bytes"`
	SplitLines int              `json:"split_lines"`
	SplitBytes int              `json:"split_bytes"`
}

// shownCalls is how many calls a golden file lists in full.
const shownCalls = 6

// TestStreamGolden holds the calls and split of step 2 of each golden log to testdata/golden;
// run `go test ./stages/stream -update` to rewrite them after a deliberate change.
func TestStreamGolden(t *testing.T) {
	for _, l := range goldentest.Logs() {
		t.Run(l.Name, func(t *testing.T) {
			cfg := stages.Config{Steps: &stages.StepRange{From: 2, To: 2}}
			calls := &collect{name: l.Name}
			goldentest.Run(t, l, stages.MustPlan(cfg, all.Registry(), "calls"), calls)
			split := &collect{}
			goldentest.Run(t, l, stages.MustPlan(cfg, all.Registry(), "split"), split)
			got := streamGolden{FirstCalls: calls.rows[:min(len(calls.rows), shownCalls)], Calls: len(calls.rows),
				SplitLines: bytes.Count(split.lines.Bytes(), []byte("\n")), SplitBytes: split.lines.Len()}
			for _, r := range calls.rows {
				got.CallBytes += r.Bytes
			}
			goldentest.Check(t, filepath.Join("testdata", "golden", l.Name+"-step2.json"), got, *update)
		})
	}
}

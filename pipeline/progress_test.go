package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// counted is an Options.Progress that keeps every count it is told.
type counted struct {
	mu     sync.Mutex
	counts []int64
}

func (c *counted) add(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts = append(c.counts, n)
}

func (c *counted) sum() (total int64, calls int, nonPositive int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.counts {
		total += n
		if n <= 0 {
			nonPositive++
		}
	}
	return total, len(c.counts), nonPositive
}

// TestProgressCountsFileBytes: Options.Progress hears of an input's bytes chunk by chunk as
// they are merged, and in all of the file's size on disk: the mapped file, the file read with
// read(2), compressed files (their compressed bytes, so that the count goes with the file
// size) and standard input.
func TestProgressCountsFileBytes(t *testing.T) {
	dir := t.TempDir()
	plainName, plain := writeLog(t, dir, smallLog("", ""))
	gz, zst := gzipped(t, plain), zstded(t, plain)
	cases := []struct {
		what string
		in   Input
		size int64
		opt  Options
	}{
		{"mapped", Input{Name: plainName}, int64(len(plain)), Options{}},
		{"read(2)", Input{Name: plainName}, int64(len(plain)), Options{NoMap: true}},
		{"gzip", Input{Name: writeText(t, "log.gz", string(gz))}, int64(len(gz)), Options{}},
		{"gzip, zero padding", Input{Name: writeText(t, "padded.gz", string(append(gz, make([]byte, 999)...)))},
			int64(len(gz) + 999), Options{}},
		{"zstd", Input{Name: writeText(t, "log.zst", string(zst))}, int64(len(zst)), Options{}},
		{"stdin", Input{Name: "-", Stdin: bytes.NewReader(plain)}, int64(len(plain)), Options{}},
	}
	for _, c := range cases {
		var got counted
		opt := c.opt
		opt.Jobs, opt.ChunkSize, opt.Plan, opt.Progress, opt.Parsers = 2, 4096, runConfigs[0].plan(), got.add, sharedParsers()
		if _, err := Run(context.Background(), c.in, opt, discard{}); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		total, calls, bad := got.sum()
		if total != c.size || bad > 0 {
			t.Errorf("%s: progress counted %d bytes in %d calls (%d not positive), want the file's %d", c.what, total, calls, bad, c.size)
		}
		// Files are read 64 KiB at a time through a buffer, mapped files counted by chunk.
		if min := int(c.size / (64 << 10)); calls < min {
			t.Errorf("%s: progress was told %d times, want it told as chunks are merged (at least %d)", c.what, calls, min)
		}
	}
}

// TestProgressRunAll: over inputs read at once (a plan that streams nothing), the counts of
// every input add up to the sum of their sizes.
func TestProgressRunAll(t *testing.T) {
	dir := t.TempDir()
	var inputs []Input
	var want int64
	for _, prefix := range []string{"", "srun", "torchrun"} {
		name, data := writeLog(t, dir, smallLog(prefix, ""))
		inputs = append(inputs, Input{Name: name})
		want += int64(len(data))
	}
	var gz = filepath.Join(dir, "more.log.gz")
	data, err := os.ReadFile(inputs[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gz, gzipped(t, data), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, Input{Name: gz})
	want += int64(len(gzipped(t, data)))
	var got counted
	opt := Options{Jobs: 4, ChunkSize: 8192, Plan: testCfg{Needs: needAgg}.plan(), Progress: got.add, Parsers: sharedParsers()}
	if _, err := RunAll(context.Background(), inputs, opt, discard{}); err != nil {
		t.Fatal(err)
	}
	if total, calls, bad := got.sum(); total != want || bad > 0 {
		t.Errorf("progress counted %d bytes in %d calls (%d not positive), want the files' %d", total, calls, bad, want)
	}
}

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/nccllog/nccllog/internal/gen"
)

const hostileDir = "../../testdata/hostile"

// hostileFixtures builds each kind of damaged input real NCCL logs carry. They are written to
// testdata/hostile by -update, so that they can be looked at and fed to the binary by hand.
func hostileFixtures(t *testing.T) map[string][]byte {
	t.Helper()
	var base bytes.Buffer
	if _, err := gen.Write(&base, gen.Config{Seed: 9, Ranks: 4, RanksPerHost: 2, Steps: 6, Noise: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(base.String(), "\n")
	rng := rand.New(rand.NewPCG(9, 9))
	f := map[string][]byte{}

	// Two processes' block-buffered stdout in one pipe: 4-8 KiB blocks cut anywhere.
	var a, b strings.Builder
	for i, l := range lines {
		if i%2 == 0 {
			a.WriteString(l)
		} else {
			b.WriteString(l)
		}
	}
	f["spliced.log"] = interleaveBlocks(rng, a.String(), b.String())

	// 2.13-2.19 over-long lines: text, a NUL, stack garbage, and the newline lost.
	var nul bytes.Buffer
	for i, l := range lines[:200] {
		if i%17 == 5 {
			nul.WriteString(strings.TrimSuffix(l, "\n") + strings.Repeat(" x", 500))
			nul.Write([]byte{0, 0x8f, 0xff, 0x01, 0x7f, 0xc3})
			continue
		}
		nul.WriteString(l)
	}
	f["nul-garbage.log"] = nul.Bytes()

	f["crlf.log"] = []byte(strings.ReplaceAll(strings.Join(lines[:300], ""), "\n", "\r\n"))

	var bad bytes.Buffer
	for i, l := range lines[:300] {
		if i%7 == 3 {
			bad.WriteString(strings.Replace(l, "NCCL INFO", "NCCL INFO \xc3\x28\xa0\xa1", 1))
			continue
		}
		bad.WriteString(l)
	}
	f["invalid-utf8.log"] = bad.Bytes()

	// Markdown pastes: quoted, fenced and indented copies of log lines.
	var md strings.Builder
	md.WriteString("Here is the log:\n\n```\n")
	for _, l := range lines[100:160] {
		md.WriteString(l)
	}
	md.WriteString("```\n\n")
	for _, l := range lines[160:200] {
		md.WriteString("> " + l)
	}
	for _, l := range lines[200:220] {
		md.WriteString("    " + l)
	}
	f["markdown.log"] = []byte(md.String())

	random := make([]byte, 64<<10)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	f["random.bin"] = random

	// A line over 1 MiB (and no newline at the end), gzip-compressed.
	long := strings.Join(lines[:50], "") + lines[50][:40] + strings.Repeat("0123456789abcdef", 80<<10) + "\n" + strings.Join(lines[51:80], "")
	f["long-line.log.gz"] = gz(t, []byte(strings.TrimSuffix(long, "\n")))

	full := gz(t, base.Bytes())
	f["truncated.log.gz"] = full[:len(full)*2/3]
	f["sample.log.zst"] = zst(t, base.Bytes())
	return f
}

// interleaveBlocks writes a and b as two processes whose stdout reaches one pipe in blocks of
// 4-8 KiB that do not follow line ends.
func interleaveBlocks(rng *rand.Rand, a, b string) []byte {
	var out []byte
	for len(a)+len(b) > 0 {
		for _, s := range []*string{&a, &b} {
			n := min(len(*s), 4096+rng.IntN(4096))
			out = append(out, (*s)[:n]...)
			*s = (*s)[n:]
		}
	}
	return out
}

func gz(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zst(t *testing.T, b []byte) []byte {
	w, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	return w.EncodeAll(b, nil)
}

// plainLines is the line count of a fixture's text: newlines, plus a last line without one.
func plainLines(b []byte) int64 {
	n := int64(bytes.Count(b, []byte{'\n'}))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

func readFixtures(t *testing.T) map[string][]byte {
	t.Helper()
	want := hostileFixtures(t)
	if *update {
		os.MkdirAll(hostileDir, 0o755)
		for name, b := range want {
			if err := os.WriteFile(filepath.Join(hostileDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join(hostileDir, name))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%s is missing or stale: run go test ./cmd/nccllog -update", name)
		}
	}
	return want
}

// TestHostileInputs runs every command over every hostile fixture: no panic, no hang, every
// line counted, and a truncated archive reported with its byte offset after what it held.
// The runs go side by side. Under -short it runs every third fixture × command pair (each
// command over three fixtures), and counts the lines of every fixture.
func TestHostileInputs(t *testing.T) {
	fixtures := readFixtures(t)
	for fi, name := range slices.Sorted(maps.Keys(fixtures)) {
		data := fixtures[name]
		path := filepath.Join(hostileDir, name)
		truncated := strings.HasPrefix(name, "truncated")
		for ci, c := range commands {
			if testing.Short() && (fi+ci)%3 != 0 {
				continue // -short: every third pair, so each command reads three fixtures, each fixture five or six commands
			}
			t.Run(name+"/"+c.name, func(t *testing.T) {
				t.Parallel() // the fixtures are only read, and run keeps no state between calls
				done := make(chan struct{})
				var code int
				var stderr string
				go func() {
					defer close(done)
					args := []string{c.name, path}
					if c.sides {
						args = append(args, path) // diff: the fixture on both sides
					}
					_, stderr, code = runCLI(t, "", args...)
				}()
				select {
				case <-done:
				case <-time.After(60 * time.Second):
					t.Fatal("no answer after 60 s")
				}
				switch {
				case truncated && (code != exitData || !strings.Contains(stderr, "byte") || !strings.Contains(stderr, name)):
					t.Errorf("exit %d, stderr %q: want exit 1 naming the file and the byte offset", code, stderr)
				case !truncated && code != exitOK && code != exitFound:
					t.Errorf("exit %d, stderr %q", code, stderr)
				}
			})
		}
		t.Run(name+"/lines", func(t *testing.T) {
			t.Parallel()
			out, _, _ := runCLI(t, "", "report", "--format", "json", path)
			if truncated {
				// A run that could not read all its input prints no result: one that looked
				// whole would mislead. The error names the file and the byte offset.
				if out != "" {
					t.Errorf("stdout %q after a failed read, want nothing", out)
				}
				return
			}
			var v struct {
				Lines map[string]int64 `json:"lines"`
			}
			if err := jsonUnmarshal(out, &v); err != nil {
				t.Fatal(err)
			}
			text := decompressed(t, name, data)
			want := plainLines(text)
			if v.Lines["total"] != want {
				t.Errorf("lines.total = %d, want %d", v.Lines["total"], want)
			}
			var sum int64
			for k, n := range v.Lines {
				if k != "total" && k != "spliced" && k != "unknown_key" { // counts that overlap the classes
					sum += n
				}
			}
			if sum != want {
				t.Errorf("the classes add up to %d lines, want %d: %v", sum, want, v.Lines)
			}
		})
	}
}

func decompressed(t *testing.T, name string, b []byte) []byte {
	t.Helper()
	switch {
	case strings.HasSuffix(name, ".gz"):
		r, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		out.ReadFrom(r)
		return out.Bytes()
	case strings.HasSuffix(name, ".zst"):
		d, _ := zstd.NewReader(nil)
		out, err := d.DecodeAll(b, nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	return b
}

var _ = fmt.Sprint

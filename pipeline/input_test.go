package pipeline

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/nccllog/nccllog/parser"
)

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zstded(t *testing.T, data []byte) []byte {
	t.Helper()
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zw.Close()
	return zw.EncodeAll(data, nil)
}

// TestCompressedInputs reads a log as it is, gzipped and zstd-compressed, from a file and from
// standard input: every form must give the plain file's results. The compressed files are
// named .log on purpose: the codec is told by the first bytes.
func TestCompressedInputs(t *testing.T) {
	_, data := writeLog(t, t.TempDir(), smallLog("srun", "nemo"))
	lines := parseAll(t, data)
	forms := []struct {
		name string
		data []byte
	}{
		{"plain", data},
		{"gzip", gzipped(t, data)},
		{"zstd", zstded(t, data)},
	}
	for _, f := range forms {
		file := writeText(t, f.name+".log", string(f.data))
		for i, in := range []Input{{Name: file}, {Name: "-", Stdin: bytes.NewReader(f.data)}} {
			cfg := runConfigs[3*i] // all/end from the file, 10-20/start from stdin
			name := in.DisplayName()
			what := f.name + " " + name + " " + cfgName(cfg)
			got := run(in, 2, 4096, cfg)
			if got.res.Inputs[0].Name != name {
				t.Errorf("%s: Result.Name = %q, want %q", what, got.res.Inputs[0].Name, name)
			}
			check(t, what, got, oracle(lines, name, cfg))
		}
	}
}

// TestTruncatedCompressed cuts a compressed log in the middle: the run must fail with an
// error that names the file and says at which byte, and still count the lines before the cut.
func TestTruncatedCompressed(t *testing.T) {
	_, data := writeLog(t, t.TempDir(), smallLog("", "nemo"))
	tests := []struct {
		codec      string
		compressed []byte
		reader     func(io.Reader) (io.Reader, error)
	}{
		{"gzip", gzipped(t, data), func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"zstd", zstded(t, data), func(r io.Reader) (io.Reader, error) {
			zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
			if err != nil {
				return nil, err
			}
			return zr.IOReadCloser(), nil
		}},
	}
	for _, tc := range tests {
		t.Run(tc.codec, func(t *testing.T) {
			cut := tc.compressed[:len(tc.compressed)/2]
			name := writeText(t, "cut.log."+tc.codec, string(cut))

			// What can be read of the cut stream at all.
			zr, err := tc.reader(bytes.NewReader(cut))
			if err != nil {
				t.Fatal(err)
			}
			readable, err := io.ReadAll(zr)
			if err == nil {
				t.Fatalf("reading the cut stream gave no error")
			}
			if !bytes.HasPrefix(data, readable) {
				t.Fatalf("the cut stream yields %d bytes that are not a prefix of the log", len(readable))
			}
			maxLines := countLines(readable)
			if maxLines < 100 {
				t.Fatalf("only %d lines before the cut: make the log bigger", maxLines)
			}

			for _, cs := range []int{4096, 1 << 20} {
				for _, jobs := range []int{1, 2} {
					got := run(Input{Name: name}, jobs, cs, runConfigs[0])
					if got.err == nil {
						t.Fatalf("chunk=%d jobs=%d: no error for a truncated file", cs, jobs)
					}
					msg := got.err.Error()
					if !strings.Contains(msg, name) || !strings.Contains(msg, "byte") {
						t.Errorf("chunk=%d jobs=%d: error %q should name %s and the byte", cs, jobs, msg, name)
					}
					if got.res == nil {
						t.Fatalf("chunk=%d jobs=%d: no Result with the error", cs, jobs)
					}
					// Every line read before the error is counted (the last, cut short, too),
					// and split gave out nothing that is not in the log.
					if n := got.res.Lines().Total; n != maxLines {
						t.Errorf("chunk=%d jobs=%d: Lines.Total = %d, want the %d lines before the cut",
							cs, jobs, n, maxLines)
					}
					if !bytes.HasPrefix(data, got.split) {
						t.Errorf("chunk=%d jobs=%d: split gave %d bytes that are not a prefix of the log",
							cs, jobs, len(got.split))
					}
				}
			}
		})
	}
}

// TestLineEdgeCases covers inputs whose lines are unusual: no newline at the end, a line
// longer than a chunk, CRLF line ends, blank lines, an empty file.
func TestLineEdgeCases(t *testing.T) {
	c1, c2 := coll(1).text, coll(2).text
	m0 := marker(0, 1.5, 100).text
	// 5 MiB, far more than a chunk. The parser's grammar can take seconds over a line this
	// long (ten seconds a MiB for a line of dashes), but it checks the scanner only on the 1st,
	// 2nd, 4th, ... line of a shape (the same first word), so two short lines of the same
	// shape go first and the long line is the third: with one worker the scanner alone reads
	// it. (Should the parser change, the test gets slower, not wrong.) With -short the line is
	// 2 MiB, still two of the larger chunk and 32,768 of the smaller: at 5 MiB the test took
	// 1.1 s of CPU, a quarter of the package's -short tests; at 2 MiB 0.35 s.
	long := strings.Repeat("x", 5<<20)
	if testing.Short() {
		long = long[:2<<20]
	}
	short := strings.Repeat("x", 40) + "\n"
	short += short
	both := []int{64, 1 << 20}
	tests := []struct {
		name   string
		input  string
		lines  int64
		calls  []int64 // the counts of the calls, in order
		chunks []int
	}{
		{"no trailing newline", c1 + "\n" + m0 + "\n" + c2, 3, []int64{1, 2}, both},
		{"no trailing newline after a marker", c1 + "\n" + m0, 2, []int64{1}, both},
		{"one line without newline", c1, 1, []int64{1}, both},
		{"long line", short + c1 + "\n" + long + "\n" + m0 + "\n" + c2 + "\n", 6, []int64{1, 2}, both},
		{"long last line without newline", short + c1 + "\n" + m0 + "\n" + long, 5, []int64{1}, both},
		{"CRLF", c1 + "\r\n" + m0 + "\r\n\r\n" + c2 + "\r\n", 4, []int64{1, 2}, both},
		{"blank lines", "\n\n" + c1 + "\n\n", 4, []int64{1}, both},
		{"empty", "", 0, nil, both},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := writeText(t, "in.log", tc.input)
			if n := countLines([]byte(tc.input)); n != tc.lines {
				t.Fatalf("the table says %d lines, countLines %d", tc.lines, n)
			}
			for _, cs := range tc.chunks {
				got := run(Input{Name: name}, 1, cs, runConfigs[0])
				read := runWith(Input{Name: name}, Options{Jobs: 1, ChunkSize: cs, Plan: runConfigs[0].plan(), NoMap: true})
				if !bytes.Equal(got.split, read.split) || !cmp.Equal(got.res.Lines(), read.res.Lines()) || read.err != nil {
					t.Errorf("chunk=%d: the mapped file reads otherwise than with read(2) (%v)", cs, read.err)
				}
				if got.err != nil {
					t.Fatalf("chunk=%d: %v", cs, got.err)
				}
				if got.res.Lines().Total != tc.lines {
					t.Errorf("chunk=%d: Lines.Total = %d, want %d", cs, got.res.Lines().Total, tc.lines)
				}
				if !bytes.Equal(got.split, []byte(tc.input)) {
					t.Errorf("chunk=%d: split is %d bytes, not the %d bytes of the input", cs, len(got.split), len(tc.input))
				}
				var counts []int64
				for _, c := range got.calls {
					counts = append(counts, c.Coll.Count)
				}
				if diff := cmp.Diff(tc.calls, counts); diff != "" {
					t.Errorf("chunk=%d: call counts (-want +got):\n%s", cs, diff)
				}
			}
		})
	}
}

// TestCRLFLikeLF reads a generated log with CRLF line ends: it must parse as the LF log does,
// and split must give back its lines byte for byte, CRs included.
func TestCRLFLikeLF(t *testing.T) {
	_, lf := writeLog(t, t.TempDir(), smallLog("mpirun", "megatron"))
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	lfName := writeText(t, "lf.log", string(lf))
	crlfName := writeText(t, "crlf.log", string(crlf))
	for _, cfg := range []testCfg{runConfigs[0], runConfigs[2]} {
		a := run(Input{Name: lfName}, 2, 4096, cfg)
		b := run(Input{Name: crlfName}, 2, 4096, cfg)
		if a.err != nil || b.err != nil {
			t.Fatalf("%s: %v, %v", cfgName(cfg), a.err, b.err)
		}
		if diff := cmp.Diff(a.res.Lines().ByKind, b.res.Lines().ByKind); diff != "" {
			t.Errorf("%s: ByKind (-lf +crlf):\n%s", cfgName(cfg), diff)
		}
		if diff := cmp.Diff(aggOf(a.res).Rows(), aggOf(b.res).Rows()); diff != "" {
			t.Errorf("%s: Agg.Rows (-lf +crlf):\n%s", cfgName(cfg), diff)
		}
		if diff := cmp.Diff(stepsOf(a.res).Points(), stepsOf(b.res).Points()); diff != "" {
			t.Errorf("%s: Steps.Points (-lf +crlf):\n%s", cfgName(cfg), diff)
		}
		for i := range b.calls {
			if b.calls[i].File != crlfName {
				t.Fatalf("%s: call %d is from %q, want %q", cfgName(cfg), i, b.calls[i].File, crlfName)
			}
			b.calls[i].File = lfName
		}
		checkCalls(t, cfgName(cfg), b.calls, a.calls)
		checkSplit(t, cfgName(cfg), b.split, bytes.ReplaceAll(a.split, []byte("\n"), []byte("\r\n")))
		if cfg.Steps == nil {
			checkSplit(t, cfgName(cfg), b.split, crlf)
		}
	}
}

// TestMissingFile: a file that is not there is an error naming it, with an empty Result.
func TestMissingFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "no-such.log")
	got := run(Input{Name: name}, 2, 0, runConfigs[0])
	if got.err == nil {
		t.Fatal("no error for a missing file")
	}
	if !errors.Is(got.err, fs.ErrNotExist) || !strings.Contains(got.err.Error(), name) {
		t.Errorf("error %q: want a not-exist error naming the file", got.err)
	}
	if got.res == nil || got.res.Inputs[0].Name != name || got.res.Lines().Total != 0 {
		t.Errorf("Result = %+v, want an empty one named %s", got.res, name)
	}
	if len(got.split) != 0 || len(got.calls) != 0 {
		t.Errorf("a missing file gave output")
	}
}

// TestStdin reads "-" from Input.Stdin.
func TestStdin(t *testing.T) {
	in := coll(1).text + "\n" + marker(0, 1.5, 100).text + "\n" + coll(2).text + "\n"
	got := run(Input{Name: "-", Stdin: strings.NewReader(in)}, 1, 0, runConfigs[0])
	if got.err != nil {
		t.Fatal(got.err)
	}
	if got.res.Inputs[0].Name != "<stdin>" || got.res.Lines().Total != 3 || string(got.split) != in {
		t.Errorf("Name %q, Lines.Total %d, split %q", got.res.Inputs[0].Name, got.res.Lines().Total, got.split)
	}
	if k := got.res.Lines().ByKind[parser.KindCollective]; k != 2 {
		t.Errorf("%d collective lines, want 2", k)
	}
}

// TestReaderSizedToSmallFile: a regular file smaller than 64 KiB is read through a buffer of
// its size (4 KiB at the least), not 64 KiB; a larger one, and standard input, through 64 KiB.
func TestReaderSizedToSmallFile(t *testing.T) {
	for _, c := range []struct{ size, want int }{{100, 4 << 10}, {10000, 10000}, {1 << 20, 64 << 10}} {
		name := writeText(t, fmt.Sprintf("%d.log", c.size), strings.Repeat("x", c.size-1)+"\n")
		src, err := open(Input{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		if br, ok := src.r.(*bufio.Reader); !ok {
			t.Errorf("a %d-byte file: read through %T, want a bufio.Reader", c.size, src.r)
		} else if br.Size() != c.want {
			t.Errorf("a %d-byte file: read through a buffer of %d bytes, want %d", c.size, br.Size(), c.want)
		}
		got, err := io.ReadAll(src.r)
		if err != nil || len(got) != c.size {
			t.Errorf("a %d-byte file: read %d bytes, %v", c.size, len(got), err)
		}
		src.Close()
	}
	src := &source{name: "<stdin>"}
	if err := src.decode(strings.NewReader("a line\n"), nil); err != nil {
		t.Fatal(err)
	}
	if br, ok := src.r.(*bufio.Reader); !ok || br.Size() != 64<<10 {
		t.Errorf("standard input read through %T, want a bufio.Reader of 64 KiB", src.r)
	}
}

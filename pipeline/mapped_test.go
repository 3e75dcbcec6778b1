package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/sharedtest"
	"github.com/nccllog/nccllog/stages"
)

// TestMappedLikeRead reads files mapped and with read(2): chunks of a page, of a few pages and
// of the default size, with one and two workers, must give the same lines, calls and
// analyses both ways. The mapped runs hand pages back after every chunk, and small chunks
// put chunk ends inside pages handed back while the next chunk is still being read.
func TestMappedLikeRead(t *testing.T) {
	name, _ := writeLog(t, t.TempDir(), smallLog("srun", "nemo"))
	files := append([]string{name}, sharedtest.Optional(t, "samples/*.log")...)
	for fi, f := range files {
		for si, size := range []int{4096, 3 * 4096, DefaultChunkSize} {
			for ji, jobs := range []int{1, 2} {
				if testing.Short() && fi > 0 && (fi%3 != 1 || si*2+ji != fi/3%6) {
					continue // -short: the generated log in all six ways, every third shared sample in one of them in turn (go test ./... reads every sample all six ways)
				}
				cfg := testCfg{Steps: &stages.StepRange{From: 1, To: 20}, Needs: needAll | needClasses}
				mapped := runWith(Input{Name: f}, Options{Jobs: jobs, ChunkSize: size, Plan: cfg.plan(), dropEvery: 1})
				read := runWith(Input{Name: f}, Options{Jobs: jobs, ChunkSize: size, Plan: cfg.plan(), NoMap: true})
				what := fmt.Sprintf("%s, chunks of %d, %d jobs", filepath.Base(f), size, jobs)
				if mapped.err != nil || read.err != nil {
					t.Fatalf("%s: mapped: %v; read: %v", what, mapped.err, read.err)
				}
				if string(mapped.split) != string(read.split) {
					t.Errorf("%s: split differs", what)
				}
				if diff := cmp.Diff(read.res.Lines(), mapped.res.Lines()); diff != "" {
					t.Errorf("%s: lines (-read +mapped):\n%s", what, diff)
				}
				if diff := cmp.Diff(aggOf(read.res).Rows(), aggOf(mapped.res).Rows()); diff != "" {
					t.Errorf("%s: aggregation (-read +mapped):\n%s", what, diff)
				}
				// reflect.DeepEqual first: cmp.Diff walking thousands of equal calls was a third of
				// the test's time. No type here has an Equal method, so where DeepEqual holds cmp
				// finds no difference either.
				if !reflect.DeepEqual(read.calls, mapped.calls) {
					if diff := cmp.Diff(read.calls, mapped.calls); diff != "" {
						t.Errorf("%s: calls (-read +mapped):\n%s", what, diff)
					}
				}
			}
		}
	}
}

// truncater cuts its file short when the first lines come out, then records them or, given
// out, writes them there as split > out.log does. Chunks mapped past the file's new end
// fault when read, and write(2) says "bad address" when handed them.
type truncater struct {
	recorder
	path string
	out  *os.File
	done bool
	err  error
}

func (tr *truncater) Lines(b []byte) error {
	if !tr.done {
		tr.done, tr.err = true, os.Truncate(tr.path, 100)
	}
	if tr.out != nil {
		_, err := tr.out.Write(b)
		return err
	}
	return tr.recorder.Lines(b)
}

// TestTruncatedWhileMapped: a file cut short while mapped is an error that names it, not a
// crash or the system's "bad address", whether the workers meet the missing pages or split's
// write does. (For the write, one chunk holds the whole file, so that the workers are done
// with it before the write, and only the write can meet the missing pages.)
func TestTruncatedWhileMapped(t *testing.T) {
	if !mapsFiles {
		t.Skip("files are mapped on Linux only")
	}
	cases := []struct {
		name   string
		chunk  int
		needs  needs
		toFile bool
	}{
		{"workers read them", 64 << 10, needLines | needAgg, false},
		{"split writes them", 64 << 20, needLines, true},
	}
	text := strings.Repeat(coll(1).text+"\n", 40000)
	name := writeText(t, "shrinks.log", text)
	for _, tc := range cases {
		for _, jobs := range []int{1, 2} {
			if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			tr := &truncater{path: name}
			if tc.toFile {
				out, err := os.Create(filepath.Join(t.TempDir(), "out.log"))
				if err != nil {
					t.Fatal(err)
				}
				defer out.Close()
				tr.out = out
			}
			_, err := Run(context.Background(), Input{Name: name},
				Options{Jobs: jobs, ChunkSize: tc.chunk, Plan: testCfg{Needs: tc.needs}.plan(), Parsers: sharedParsers()}, tr)
			if tr.err != nil {
				t.Fatal(tr.err)
			}
			if err == nil || err.Error() != strconv.Quote(name)+": the file was truncated while it was being read" {
				t.Fatalf("%s, jobs=%d: error %v, want one saying %s was truncated", tc.name, jobs, err, name)
			}
			if errors.Is(err, context.Canceled) {
				t.Fatalf("%s, jobs=%d: the run's error is its cancellation: %v", tc.name, jobs, err)
			}
		}
	}
}

func runWith(in Input, opt Options) outcome {
	rec := &recorder{}
	if opt.Parsers == nil {
		opt.Parsers = sharedParsers()
	}
	res, err := Run(context.Background(), in, opt, rec)
	return outcome{res: res, err: err, split: rec.split, calls: rec.calls}
}

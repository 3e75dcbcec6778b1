package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages"
)

// boundedInput is one way of reading a log: mapped, with read(2), compressed, or from
// standard input.
type boundedInput struct {
	name string
	in   func(t *testing.T, file string, data []byte) (Input, Options)
}

var boundedInputs = []boundedInput{
	{"mapped", func(_ *testing.T, file string, _ []byte) (Input, Options) { return Input{Name: file}, Options{} }},
	{"read", func(_ *testing.T, file string, _ []byte) (Input, Options) {
		return Input{Name: file}, Options{NoMap: true}
	}},
	{"gzip", func(t *testing.T, file string, data []byte) (Input, Options) {
		gz := file + ".gz"
		if err := os.WriteFile(gz, gzipped(t, data), 0o644); err != nil {
			t.Fatal(err)
		}
		return Input{Name: gz}, Options{}
	}},
	{"stdin", func(_ *testing.T, _ string, data []byte) (Input, Options) {
		return Input{Name: "-", Stdin: bytes.NewReader(data)}, Options{}
	}},
}

// runOpt runs cfg over in with opt's reading options, and the shared parsers where opt
// names none.
func runOpt(in Input, opt Options, cfg testCfg) outcome {
	rec := &recorder{}
	opt.Plan = cfg.plan()
	if opt.Parsers == nil {
		opt.Parsers = sharedParsers()
	}
	res, err := Run(context.Background(), in, opt, rec)
	return outcome{res: res, err: err, split: rec.split, calls: rec.calls}
}

// named gives the oracle's calls the name the input is read under.
func named(w want, name string) want {
	calls := make([]stages.Call, len(w.calls))
	for i, c := range w.calls {
		c.File = name
		calls[i] = c
	}
	w.calls = calls
	for i := range w.lines.Problems {
		w.lines.Problems[i].File = name
	}
	return w
}

// TestLongStepsKeepExactSteps: a job of 1,024 ranks has more than 16,384 calls in a step,
// more than 2 MiB of log between two progress lines. Every call keeps its exact step,
// whether the log is read mapped, with read(2), compressed or from standard input, and
// split and calls with steps selected write exactly the step's lines.
func TestLongStepsKeepExactSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10 MB log through five readings runs without -short")
	}
	if raceEnabled {
		t.Skip("a 10 MB log through five readings is too slow under the race detector")
	}
	dir := t.TempDir()
	file, data := writeLog(t, dir, gen.Config{Seed: 5, Ranks: 1024, Steps: 3, Noise: true})
	lines := parseAll(t, data)
	for _, cfg := range []testCfg{
		{Boundary: stages.BoundaryEnd, Needs: needAll},
		{Steps: rangeOf(1, 1), Boundary: stages.BoundaryEnd, Needs: needAll},
	} {
		w := oracle(lines, file, cfg)
		if cfg.Steps == nil {
			perStep := map[int64]int{}
			for _, c := range w.calls {
				perStep[c.Step]++
			}
			if perStep[1] <= 1<<14 {
				t.Fatalf("step 1 has %d calls; the test needs more than 16,384", perStep[1])
			}
		}
		for _, bi := range boundedInputs {
			in, opt := bi.in(t, file, data)
			what := fmt.Sprintf("%s %s", bi.name, cfgName(cfg))
			check(t, what, runOpt(in, opt, cfg), named(w, in.DisplayName()))
		}
	}
}

// TestWaitCapEveryReading runs logs with a cap of a few bytes to a few KiB on what waits for
// a step, so that every stretch is looked ahead or spilled, at chunk sizes that cut lines
// everywhere: the results are a plain line-by-line pass's.
func TestWaitCapEveryReading(t *testing.T) {
	dir := t.TempDir()
	file, data := writeLog(t, dir, smallLog("srun", "megatron"))
	lines := parseAll(t, data)
	cfgs := []testCfg{
		{Boundary: stages.BoundaryEnd, Needs: needAll},
		{Steps: rangeOf(10, 20), Boundary: stages.BoundaryEnd, Needs: needAll},
		{Steps: rangeOf(23, 30), Boundary: stages.BoundaryEnd, Needs: needAll | needRanks},
	}
	k := 0
	for ci, cfg := range cfgs {
		w := oracle(lines, file, cfg)
		for bn, bi := range boundedInputs {
			for wi, wc := range []int{1, 333, 4 << 10} {
				if testing.Short() && wi != (bn+ci)%3 {
					continue // -short: one cap a reading and selection, each cap for every reading (go test ./... tries all three on each)
				}
				k++
				in, opt := bi.in(t, file, data)
				opt.waitCap, opt.ChunkSize, opt.Jobs = wc, []int{97, 700, 4 << 10}[k%3], 1+k%2
				what := fmt.Sprintf("%s %s cap=%d chunk=%d", bi.name, cfgName(cfg), wc, opt.ChunkSize)
				check(t, what, runOpt(in, opt, cfg), named(w, in.DisplayName()))
			}
		}
	}
}

// TestSpillFileReplay: what is written comes back in order, in runs of whole lines, a line
// longer than a run whole too, and the file is empty after.
func TestSpillFileReplay(t *testing.T) {
	s := &spillFile{}
	defer s.Close()
	long := bytes.Repeat([]byte("x"), 3*spillPiece)
	parts := [][]byte{[]byte("a\nb"), []byte("c\n"), long, []byte("\nlast")}
	for round := range 2 {
		var want []byte
		for _, p := range parts {
			if err := s.Write(p); err != nil {
				t.Fatal(err)
			}
			want = append(want, p...)
		}
		var got []byte
		err := s.Replay(func(b []byte) error {
			if len(b) == 0 || b[len(b)-1] != '\n' && len(got)+len(b) != len(want) {
				t.Errorf("round %d: a run of %d bytes does not end a line", round, len(b))
			}
			got = append(got, b...)
			return nil
		})
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("round %d: Replay gave %d bytes (err %v), want %d", round, len(got), err, len(want))
		}
		if st, err := s.f.Stat(); err != nil || st.Size() != 0 {
			t.Fatalf("round %d: the file holds %d bytes after Replay (err %v)", round, st.Size(), err)
		}
	}
	if _, err := os.Stat(s.f.Name()); !os.IsNotExist(err) {
		t.Errorf("the spill file %s is still in its directory (%v)", filepath.Base(s.f.Name()), err)
	}
}

// TestWaitCapCallsOnly is TestWaitCapEveryReading for calls --steps, which reads only the
// selected steps' lines and the markers.
func TestWaitCapCallsOnly(t *testing.T) {
	dir := t.TempDir()
	file, data := writeLog(t, dir, smallLog("", "nemo"))
	lines := parseAll(t, data)
	cfg := testCfg{Steps: rangeOf(10, 20), Boundary: stages.BoundaryEnd, Needs: needCalls}
	w := oracle(lines, file, cfg)
	for k, bi := range boundedInputs {
		for _, wc := range []int{1, 500} {
			in, opt := bi.in(t, file, data)
			opt.waitCap, opt.ChunkSize = wc, []int{97, 4 << 10}[k%2]
			got := runOpt(in, opt, cfg)
			what := fmt.Sprintf("%s %s cap=%d chunk=%d", bi.name, cfgName(cfg), wc, opt.ChunkSize)
			if got.err != nil {
				t.Fatalf("%s: %v", what, got.err)
			}
			checkCalls(t, what, got.calls, named(w, in.DisplayName()).calls)
		}
	}
}

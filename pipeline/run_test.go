package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/agg"
	"github.com/nccllog/nccllog/stages/steps"
)

const needAll = needAgg | needCalls | needLines

// recorder is a stages.Out that keeps copies of everything it is given.
type recorder struct {
	split []byte
	calls []stages.Call
}

func (r *recorder) Lines(b []byte) error {
	r.split = append(r.split, b...)
	return nil
}

func (r *recorder) Call(c *stages.Call) error {
	r.calls = append(r.calls, *c)
	return nil
}

// outcome is everything one run yields.
type outcome struct {
	res   *stages.Result
	err   error
	split []byte
	calls []stages.Call
}

// run runs cfg over in with the package's shared parsers (see sharedParsers).
func run(in Input, jobs, chunkSize int, cfg testCfg) outcome {
	return runOpt(in, Options{Jobs: jobs, ChunkSize: chunkSize}, cfg)
}

// sharedParsers is the parsers the tests' runs borrow from (Options.Parsers), as RunAll's
// inputs do: the tests read the same generated logs over and over, and fresh parsers spent a
// quarter of the package's time checking the same first lines against the grammar again.
// Tests of a single run's own parsers leave Options.Parsers nil.
var sharedParsers = sync.OnceValue(func() *Parsers { return &Parsers{} })

// want is what a run must yield, worked out line by line without chunks.
type want struct {
	lines stages.Lines
	split []byte
	calls []stages.Call
	agg   *agg.Agg
	steps *steps.Steps
}

// parsedLine is one input line with its newline (if any) and how it parses.
type parsedLine struct {
	raw []byte
	p   parser.Line
}

// parseAll cuts data into lines as the pipeline does (a last line without a newline counts)
// and parses each with one parser.
func parseAll(t *testing.T, data []byte) []parsedLine {
	t.Helper()
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	return parseWith(p, data)
}

// stepOf gives each line the step it belongs to (-1: none) by the boundary rule: with
// BoundaryEnd the step of the first marker at or after the line, with BoundaryStart the step
// of the last marker at or before it.
func stepOf(isMarker func(i int) (int64, bool), n int, b stages.Boundary) []int64 {
	steps := make([]int64, n)
	cur := int64(-1)
	if b == stages.BoundaryEnd {
		for i := n - 1; i >= 0; i-- {
			if s, ok := isMarker(i); ok {
				cur = s
			}
			steps[i] = cur
		}
		return steps
	}
	for i := 0; i < n; i++ {
		if s, ok := isMarker(i); ok {
			cur = s
		}
		steps[i] = cur
	}
	return steps
}

func selected(cfg testCfg, step int64) bool {
	return cfg.Steps == nil || step >= 0 && cfg.Steps.Has(step)
}

// oracle works out what a run over lines must yield, in one plain pass.
func oracle(lines []parsedLine, name string, cfg testCfg) want {
	w := want{agg: agg.NewAgg(), steps: steps.NewSteps(), split: []byte{}}
	steps := stepOf(func(i int) (int64, bool) {
		return lines[i].p.Prog.Step, lines[i].p.Kind == parser.KindProgress
	}, len(lines), cfg.Boundary)
	for i := range lines {
		l := &lines[i].p
		// With steps selected (and not --strict), the lines of other steps but their
		// progress lines are counted unread.
		if cfg.Steps != nil && cfg.Needs&needClasses == 0 && l.Kind != parser.KindProgress && !selected(cfg, steps[i]) {
			w.lines.Total++
			w.lines.Unread++
		} else {
			w.lines.Add(int64(i+1), bytes.TrimSuffix(lines[i].raw, []byte("\n")), l)
		}
		if l.Kind == parser.KindProgress && (cfg.Steps == nil || cfg.Steps.Has(l.Prog.Step)) {
			w.steps.Add(&l.Prog)
		}
		if !selected(cfg, steps[i]) {
			continue
		}
		w.split = append(w.split, lines[i].raw...)
		if l.Kind != parser.KindCollective {
			continue
		}
		w.agg.Add(l.Coll.Op, l.Coll.Count, l.Coll.Datatype)
		w.calls = append(w.calls, stages.Call{
			File: name, Line: int64(i + 1), Step: steps[i], Rank: l.Rank, Env: l.Env, Coll: l.Coll,
			Dropped: l.Coll.Count <= 0 || l.Coll.Datatype.Size() == 0, Time: l.Time,
		})
	}
	for i := range w.lines.Problems {
		w.lines.Problems[i].File = name
	}
	return w
}

// countLines is the number of lines in data: its newlines, plus one for a last line without.
func countLines(data []byte) int64 {
	n := int64(bytes.Count(data, []byte("\n")))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// check compares a run with what it must yield and reports the differences as errors.
func check(t *testing.T, what string, got outcome, w want) {
	t.Helper()
	if got.err != nil {
		t.Errorf("%s: Run: %v", what, got.err)
		return
	}
	res := got.res
	if diff := cmp.Diff(w.lines, *res.Lines()); diff != "" {
		t.Errorf("%s: Lines (-want +got):\n%s", what, diff)
	}
	if res.Parse.Lines != res.Lines().Total {
		t.Errorf("%s: parser read %d lines but Lines.Total is %d", what, res.Parse.Lines, res.Lines().Total)
	}
	if aggOf(res) == nil {
		t.Errorf("%s: Result.Agg is nil with NeedAgg", what)
	} else {
		if diff := cmp.Diff(w.agg.Rows(), aggOf(res).Rows()); diff != "" {
			t.Errorf("%s: Agg.Rows (-want +got):\n%s", what, diff)
		}
		if diff := cmp.Diff(w.agg.DroppedRows(), aggOf(res).DroppedRows()); diff != "" {
			t.Errorf("%s: Agg.DroppedRows (-want +got):\n%s", what, diff)
		}
	}
	if diff := cmp.Diff(w.steps.Points(), stepsOf(res).Points()); diff != "" {
		t.Errorf("%s: Steps.Points (-want +got):\n%s", what, diff)
	}
	checkSplit(t, what, got.split, w.split)
	checkCalls(t, what, got.calls, w.calls)
}

// checkSplit compares split output without printing megabytes.
func checkSplit(t *testing.T, what string, got, want []byte) bool {
	t.Helper()
	if bytes.Equal(got, want) {
		return true
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-80)
	t.Errorf("%s: split output differs at byte %d (got %d bytes, want %d)\n got: %q\nwant: %q",
		what, i, len(got), len(want), got[lo:min(len(got), i+80)], want[lo:min(len(want), i+80)])
	return false
}

// checkCalls compares calls and shows the first few that differ.
func checkCalls(t *testing.T, what string, got, want []stages.Call) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	t.Errorf("%s: calls differ from call %d on (got %d calls, want %d) (-want +got):\n%s", what, i,
		len(got), len(want), cmp.Diff(want[i:min(len(want), i+3)], got[i:min(len(got), i+3)]))
}

// writeLog writes the generated log to a file in dir and returns its name and contents.
func writeLog(t *testing.T, dir string, cfg gen.Config) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, cfg); err != nil {
		t.Fatalf("gen.Write(%+v): %v", cfg, err)
	}
	name := filepath.Join(dir, fmt.Sprintf("%s-%s.log", cfg.Prefix, cfg.Progress))
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return name, buf.Bytes()
}

// smallLog is the generated log the input tests share: 24 steps so that steps 10-20 have
// lines before and after them.
func smallLog(prefix, progress string) gen.Config {
	return gen.Config{Seed: 1, Steps: 24, Ranks: 4, Noise: true, Prefix: prefix, Progress: progress}
}

var runConfigs = []testCfg{
	{Boundary: stages.BoundaryEnd, Needs: needAll},
	{Boundary: stages.BoundaryStart, Needs: needAll},
	{Steps: &stages.StepRange{From: 10, To: 20}, Boundary: stages.BoundaryEnd, Needs: needAll},
	{Steps: &stages.StepRange{From: 10, To: 20}, Boundary: stages.BoundaryStart, Needs: needAll},
}

func cfgName(c testCfg) string {
	s := "all"
	if c.Steps != nil {
		s = fmt.Sprintf("%d-%d", c.Steps.From, c.Steps.To)
	}
	return s + "/" + c.Boundary.String()
}

// TestRunIndependentOfChunking runs generated logs of every launcher prefix and progress
// style through every chunk size and worker count: every result must be the one a plain
// line-by-line pass gives, so all runs agree with each other too. A run costs tens of
// milliseconds of parser warm-up whatever the log's size, so the worker counts rotate:
// every log runs every configuration at every chunk size, and over the nine logs every
// (configuration, chunk size, workers) triple runs three times; under the race detector or
// -short, three of the logs cover each triple once.
func TestRunIndependentOfChunking(t *testing.T) {
	chunkSizes := []int{64, 333, 4096, 1 << 20}
	jobs := []int{1, 2, 4}
	logIdx := 0
	for _, prefix := range []string{"", "srun", "mpirun"} {
		for _, progress := range []string{"nemo", "megatron", "torchtitan"} {
			li := logIdx
			logIdx++
			if (raceEnabled || testing.Short()) && li%4 != 0 {
				continue // the three logs 0, 4 and 8 still cover every triple, every prefix and every progress style once
			}
			t.Run(prefix+"/"+progress, func(t *testing.T) {
				t.Parallel()
				name, data := writeLog(t, t.TempDir(), smallLog(prefix, progress))
				lines := parseAll(t, data)
				for ci, cfg := range runConfigs {
					w := oracle(lines, name, cfg)
					// The oracle itself, against what is known of the log.
					if w.lines.Total != countLines(data) {
						t.Fatalf("oracle counts %d lines, the file has %d", w.lines.Total, countLines(data))
					}
					pts := w.steps.Points()
					if cfg.Steps == nil && len(pts) != 24 || cfg.Steps != nil && len(pts) != 11 {
						t.Fatalf("%s: the log has %d progress points in range", cfgName(cfg), len(pts))
					}
					if cfg.Steps == nil && !bytes.Equal(w.split, data) {
						t.Fatalf("oracle: split without --steps is not the whole file")
					}
					if len(w.calls) == 0 {
						t.Fatalf("%s: no calls selected", cfgName(cfg))
					}
					for ki, cs := range chunkSizes {
						j := jobs[(li+ci+ki)%len(jobs)]
						what := fmt.Sprintf("%s chunk=%d jobs=%d", cfgName(cfg), cs, j)
						got := run(Input{Name: name}, j, cs, cfg)
						check(t, what, got, w)
						if got.err == nil && cfg.Steps == nil {
							if got.res.Lines().Total != countLines(data) {
								t.Errorf("%s: Lines.Total = %d, the file has %d lines", what, got.res.Lines().Total, countLines(data))
							}
							if !bytes.Equal(got.split, data) {
								t.Errorf("%s: split without --steps is not the whole file", what)
							}
						}
					}
				}
			})
		}
	}
}

package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// checkSplitOnly compares a run that needs only lines (split: the workers read nothing but
// what may be a step marker) with what a full line-by-line pass selects.
func checkSplitOnly(t *testing.T, what string, got outcome, w want) bool {
	t.Helper()
	if got.err != nil {
		t.Errorf("%s: %v", what, got.err)
		return false
	}
	ok := true
	fail := func(format string, args ...any) {
		t.Errorf(what+": "+format, args...)
		ok = false
	}
	res := got.res
	if res.Lines().Total != w.lines.Total {
		fail("Lines.Total = %d, want %d", res.Lines().Total, w.lines.Total)
	}
	classed := int64(0)
	for _, n := range res.Lines().ByKind {
		classed += n
	}
	if classed+res.Lines().Unread != res.Lines().Total {
		fail("%d lines classed and %d unread, but %d in all", classed, res.Lines().Unread, res.Lines().Total)
	}
	// Every step marker is read and classed, whatever is skipped around it.
	if k := res.Lines().ByKind[parser.KindProgress]; k != w.lines.ByKind[parser.KindProgress] {
		fail("%d progress lines classed, want %d", k, w.lines.ByKind[parser.KindProgress])
	}
	if diff := cmp.Diff(w.steps.Points(), stepsOf(res).Points()); diff != "" {
		fail("Steps.Points (-want +got):\n%s", diff)
	}
	if aggOf(res) != nil || len(got.calls) != 0 {
		fail("an Agg or calls without NeedAgg or NeedCalls")
	}
	return checkSplit(t, what, got.split, w.split) && ok
}

// TestSplitOnlyGenerated: with NeedLines alone, split must give out exactly the lines a full
// analysis selects, at every chunk size, for every launcher prefix and progress style.
func TestSplitOnlyGenerated(t *testing.T) {
	logs := []struct{ prefix, progress string }{{"", "megatron"}, {"srun", "torchtitan"}, {"mpirun", "nemo"}}
	for li, lg := range logs {
		name, data := writeLog(t, t.TempDir(), smallLog(lg.prefix, lg.progress))
		lines := parseAll(t, data)
		for ci, cfg := range runConfigs {
			cfg.Needs = needLines
			w := oracle(lines, name, cfg)
			for ki, cs := range []int{64, 333, 4096, 1 << 20} {
				if testing.Short() && (li+ci+ki)%2 != 0 {
					continue // -short: two of the chunk sizes for each log and selection, in turn (go test ./... reads all four)
				}
				jobs := 1 + (li+ci+ki)%3
				what := fmt.Sprintf("%s/%s %s chunk=%d jobs=%d", lg.prefix, lg.progress, cfgName(cfg), cs, jobs)
				checkSplitOnly(t, what, run(Input{Name: name}, jobs, cs, cfg), w)
			}
		}
	}
}

// TestSplitOnlyHandMade: the same on hand-made logs at chunk sizes from 16 to 400 bytes, so
// that markers fall at the start and end of chunks; the exact log of TestStepBoundariesExact
// is among them.
func TestSplitOnlyHandMade(t *testing.T) {
	ranges := []*stages.StepRange{nil, rangeOf(0, 0), rangeOf(9, 9), rangeOf(3, 5), rangeOf(10, 20)}
	exact := []hline{text("start"), coll(1), marker(0, 1.5, 100), coll(2), text(""), marker(1, 1.5, 100),
		marker(2, 1.5, 100), coll(3), text("tail")}
	failures := 0
	for li, ls := range [][]hline{exact, handLog(3), handLog(4)} {
		log := joinLines(ls)
		name := writeText(t, fmt.Sprintf("hand%d.log", li), log)
		lines := parseAll(t, []byte(log))
		stride := 7
		if raceEnabled {
			stride = 21
		}
		for cs := 16 + li; cs <= 400 && failures < 10; cs += stride {
			k := cs / stride
			cfg := testCfg{Steps: ranges[k%len(ranges)], Boundary: stages.Boundary(k / len(ranges) % 2),
				Needs: needLines}
			jobs := 1 + k%3
			w := oracle(lines, name, cfg)
			split, _, _, _ := handWant(ls, cfg)
			if string(w.split) != split {
				t.Fatalf("the oracle and handWant disagree on %s", cfgName(cfg))
			}
			what := fmt.Sprintf("log %d %s chunk=%d jobs=%d", li, cfgName(cfg), cs, jobs)
			if !checkSplitOnly(t, what, run(Input{Name: name}, jobs, cs, cfg), w) {
				failures++
			}
		}
	}
}

// TestSplitOnlyLinear: lines that mention "step" but are no markers (application output,
// optimizer messages) are split and analysed whole, one chunk of 15,000 of them. That the
// search for the next possible marker stays linear over them, parser's
// TestProgressFinderLinear holds by counting the bytes searched: timing split against the
// full analysis here failed on a loaded machine.
func TestSplitOnlyLinear(t *testing.T) {
	data := strings.Repeat("optimizer step done\n", 15000)
	name := writeText(t, "steps.log", data)
	for _, needs := range []needs{needAll, needLines} {
		got := run(Input{Name: name}, 1, 0, testCfg{Needs: needs})
		if got.err != nil || got.res.Lines().Total != 15000 {
			t.Fatalf("needs %03b: %v, %d lines", needs, got.err, got.res.Lines().Total)
		}
		if needs == needLines && string(got.split) != data {
			t.Errorf("split gave %d bytes, want the %d of the input", len(got.split), len(data))
		}
	}
}

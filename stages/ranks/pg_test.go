package ranks

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/internal/stagetest"
)

// ranksOfLines runs the ranks stage over lines as the file name, cut into two stretches at
// cut (each folded on its own, then merged, as two inputs' partials are).
func ranksOfLines(t *testing.T, name string, lines []string, cut int) *Ranks {
	t.Helper()
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	parsed := make([]parser.Line, len(lines))
	for i, text := range lines {
		p.Parse([]byte(text), &parsed[i])
	}
	return ranksOfParsed(t, name, lines, parsed, cut)
}

// ranksOfParsed is ranksOfLines with the lines already parsed.
func ranksOfParsed(t *testing.T, name string, lines []string, parsed []parser.Line, cut int) *Ranks {
	t.Helper()
	var parts []*RanksPart
	for i, stretch := range [][]string{lines[:cut], lines[cut:]} {
		part := RanksStage{}.New(&stages.Config{}).(*RanksPart)
		for n, text := range stretch {
			pl := parsed[i*cut+n]
			if (RanksStage{}).Kinds().Has(int(pl.Kind)) {
				part.Add(&stages.Line{N: int64(n + 1), Text: []byte(text), P: &pl})
			}
		}
		part.Settle(-1, false)
		part.Anchor(stages.Origin{File: name, Base: int64(i * cut)})
		if err := part.Commit(nil); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, part)
	}
	parts[0].Merge(parts[1])
	return parts[0].ranks()
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// TestPGHangFixtures: a rank whose queue stops below the work the others time out on is the
// one suspect; a group whose ranks all entered that work (a fault they share) and a group
// with dump signals only have none. Every cut of the input gives the same verdict.
func TestPGHangFixtures(t *testing.T) {
	for _, tc := range []struct {
		file     string
		seq      int64
		timedOut int
		suspects []int64
		states   []PGState
		start    string
	}{
		{"straggler-queue.log", 57, 3, []int64{2}, []PGState{PGEntered, PGEntered, PGNotReached, PGEntered}, "04-11 23:54:10.500"},
		{"network.log", 57, 4, nil, []PGState{PGEntered, PGEntered, PGEntered, PGEntered}, "04-11 23:54:10.500"},
		{"dumps-only.log", -1, 0, nil, []PGState{PGUnknown, PGUnknown, PGUnknown}, ""},
	} {
		path := filepath.Join("testdata", "watchdog", tc.file)
		lines := readLines(t, path)
		for cut := range len(lines) + 1 {
			fs := ranksOfLines(t, path, lines, cut).PGHang()
			if len(fs) != 1 {
				t.Fatalf("%s cut at %d: %d process groups, want 1: %+v", tc.file, cut, len(fs), fs)
			}
			f := fs[0]
			var sus []int64
			for _, s := range f.Suspects {
				sus = append(sus, s.Row.Rank)
			}
			var states []PGState
			for _, r := range f.Rows {
				states = append(states, r.State)
			}
			start := ""
			if f.StartNanos >= 0 {
				ms := f.StartNanos / 1e6
				start = pad2(f.StartMonth) + "-" + pad2(f.StartDay) + " " + pad2(ms/3600000) + ":" + pad2(ms/60000%60) + ":" +
					pad2(ms/1000%60) + "." + itoa(1000 + ms%1000)[1:]
			}
			if f.Seq != tc.seq || f.TimedOut != tc.timedOut || stagetest.DiffSlices(tc.suspects, sus) != "" ||
				stagetest.DiffSlices(tc.states, states) != "" || start != tc.start {
				t.Errorf("%s cut at %d: seq %d, %d timed out, suspects %v, states %v, start %q; want %d, %d, %v, %v, %q",
					tc.file, cut, f.Seq, f.TimedOut, sus, states, start, tc.seq, tc.timedOut, tc.suspects, tc.states, tc.start)
			}
		}
	}
}

func pad2(v int64) string { return itoa(100 + v)[1:] }

// TestPGSnapshotRestore: a partial carries the process groups' ranks; restored, it gives the
// same verdict as the lines.
func TestPGSnapshotRestore(t *testing.T) {
	path := filepath.Join("testdata", "watchdog", "straggler-queue.log")
	lines := readLines(t, path)
	r := ranksOfLines(t, path, lines, len(lines))
	part := &RanksPart{cfg: &stages.Config{}, Ranks: r}
	data, err := json.Marshal(part.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	back := RanksStage{}.New(&stages.Config{}).(*RanksPart)
	if err := stagetest.RestoreJSON(back, data); err != nil {
		t.Fatal(err)
	}
	want, got := r.PGHang(), back.ranks().PGHang()
	if len(got) != 1 || len(got[0].Suspects) != 1 || got[0].Suspects[0].Row.Rank != 2 ||
		*got[0].Suspects[0].Row.W != *want[0].Suspects[0].Row.W {
		t.Errorf("restored: %+v; want %+v", got, want)
	}
}

// TestPGDayBefore: a timeout printed just after midnight started the day before.
func TestPGDayBefore(t *testing.T) {
	p := &PGRank{TimeoutMs: 600000, At: parser.GlogHead{Level: 'E', Month: 3, Day: 1, Nanos: 5 * 1e9}}
	if m, d, n := start(p); m != 2 || d != 28 || n != (24*3600-595)*1e9 {
		t.Errorf("start: %d-%d %d; want 2-28 %d", m, d, n, int64(24*3600-595)*1e9)
	}
}

// TestPGStartOutOfRange: a timeout or date no clock has (a damaged partial) gives no start,
// and no panic.
func TestPGStartOutOfRange(t *testing.T) {
	for _, p := range []*PGRank{
		{TimeoutMs: 1 << 62, At: parser.GlogHead{Level: 'E', Month: 3, Day: 1, Nanos: 5}},
		{TimeoutMs: 600000, At: parser.GlogHead{Level: 'E', Month: 14, Day: 1, Nanos: 5}},
		{TimeoutMs: 600000, At: parser.GlogHead{Level: 'E', Month: 0, Day: 1, Nanos: 5}},
	} {
		if m, d, n := start(p); m != -1 || d != -1 || n != -1 {
			t.Errorf("start of %+v: %d-%d %d, want unknown", p, m, d, n)
		}
	}
}

// TestPGHugeRankNumber: a rank number far above the others adds no rows for the ranks
// between (they would outnumber the ranks with lines), and takes no time or memory.
func TestPGHugeRankNumber(t *testing.T) {
	lines := []string{
		"[PG 1 Rank 0] Timeout at NCCL work: 9, last enqueued NCCL work: 9, last completed NCCL work: 8.",
		"[PG 1 Rank 1] Timeout at NCCL work: 9, last enqueued NCCL work: 9, last completed NCCL work: 8.",
		"[PG 1 Rank 999999999999999] Timeout at NCCL work: 9, last enqueued NCCL work: 9, last completed NCCL work: 8.",
	}
	fs := ranksOfLines(t, "huge.log", lines, 1).PGHang()
	if len(fs) != 1 || len(fs[0].Rows) != 3 || len(fs[0].Suspects) != 0 {
		t.Errorf("%+v, want one group of 3 rows and no suspect", fs)
	}
}

// pgFuzzParsed is every line pgFuzzLine makes, as the parser reads it, worked out once (as
// fuzzParsed is for FuzzStepSplitter): the grammar reads each watchdog line, and parsing the
// lines of every run held the target to about 140 runs a second.
var pgFuzzParsed = sync.OnceValues(func() (map[string]parser.Line, error) {
	p, err := parser.NewParser()
	if err != nil {
		return nil, err
	}
	table := map[string]parser.Line{}
	// A line depends on b%6 and b%10 (so on b%30), r%6 and s%4.
	for b := byte(0); b < 30; b++ {
		for r := byte(0); r < 6; r++ {
			for s := byte(0); s < 4; s++ {
				line := pgFuzzLine(b, r, s)
				var l parser.Line
				p.Parse([]byte(line), &l)
				table[line] = l
			}
		}
	}
	return table, nil
})

// pgFuzzLine is one watchdog line of rank r about work s, of the form b picks.
func pgFuzzLine(b, r, s byte) string {
	rk, seq, prev := itoa(int64(r%6)), itoa(int64(s%4)+10), itoa(int64(s%4)+9)
	switch b % 6 {
	case 0:
		return "[E0412 00:04:1" + itoa(int64(b%10)) + ".500000000 ProcessGroupNCCL.cpp:607] [Rank " + rk +
			"] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + seq + ", OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600012 milliseconds before timing out."
	case 1:
		return "[PG 0 Rank " + rk + "] Timeout at NCCL work: " + seq + ", last enqueued NCCL work: " + seq + ", last completed NCCL work: " + prev + "."
	case 2:
		return "[PG 0 Rank " + rk + "] Exception (either an error or timeout) detected by watchdog at work: " + seq + ", last enqueued NCCL work: " + seq + ", last completed NCCL work: " + prev + "."
	case 3:
		return "[rank" + rk + "]:[E0412 00:04:10.500200000 ProcessGroupNCCL.cpp:1720] [PG ID 0 PG GUID 0(default_pg) Rank " + rk +
			"] Received a dump signal due to a collective timeout from  rank 0 and we will try our best to dump the debug info. Last enqueued NCCL work: " + prev + ", last completed NCCL work: " + prev + ".This is most likely caused by incorrect usages of collectives."
	case 4:
		return "[PG ID 0 PG GUID 0(default_pg) Rank " + rk + "] First PG on this rank to signal dumping."
	}
	return "[PG 0 Rank " + rk + "] failure detected by watchdog at work sequence id: " + seq + " PG status: last enqueued work: " + seq + ", last started work: " + prev + " (ALLREDUCE), last completed work: " + prev
}

// FuzzPGHangCuts: whatever the watchdog lines and wherever the input is cut into two
// partials, PGHang gives what it gives over the whole input, and never panics.
func FuzzPGHangCuts(f *testing.F) {
	f.Add([]byte{0, 0, 1, 1, 0, 1, 3, 2, 0}, uint8(2))
	f.Add([]byte{1, 1, 1, 2, 3, 1, 4, 0, 0, 5, 2, 3}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		table, err := pgFuzzParsed()
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		var parsed []parser.Line
		for i := 0; i+2 < len(data) && len(lines) < 40; i += 3 {
			line := pgFuzzLine(data[i], data[i+1], data[i+2])
			l, ok := table[line]
			if !ok {
				t.Fatalf("pgFuzzParsed lacks %q", line)
			}
			lines, parsed = append(lines, line), append(parsed, l)
		}
		c := int(cut) % (len(lines) + 1)
		want := pgHangText(ranksOfParsed(t, "f.log", lines, parsed, len(lines)).PGHang())
		if got := pgHangText(ranksOfParsed(t, "f.log", lines, parsed, c).PGHang()); got != want {
			t.Errorf("cut at %d:\n%s\nwhole:\n%s\nlines:\n%s", c, got, want, strings.Join(lines, "\n"))
		}
	})
}

// pgHangText is a finding's rows and suspects, for comparing.
func pgHangText(fs []PGFinding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%+v %q seq %d/%d start %d-%d %d\n", f.PG, f.Name, f.Seq, f.TimedOut, f.StartMonth, f.StartDay, f.StartNanos)
		for _, r := range f.Rows {
			fmt.Fprintf(&b, "  %d %s", r.Rank, r.State)
			if r.W != nil {
				fmt.Fprintf(&b, " %+v", *r.W)
			}
			b.WriteString("\n")
		}
		for _, s := range f.Suspects {
			fmt.Fprintf(&b, "  suspect %d %d\n", s.Row.Rank, s.Score)
		}
	}
	return b.String()
}

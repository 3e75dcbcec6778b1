package strag_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/stages/strag"
)

// TestLagMapSteps: a job's map has a column per step and a row per rank; the chronic
// straggler's row is labelled chronic and late in nearly every step, the one-off's late in
// its late step only.
func TestLagMapSteps(t *testing.T) {
	t.Parallel()
	c := fullJob() // the map's rows and caps are the 64-rank job's
	c.Stragglers = []gen.Straggler{{Rank: 12, Kind: gen.StragglerOneOff, Lag: 60 * time.Millisecond}, {Rank: 45, Kind: gen.StragglerChronic}}
	path, truth := write(t, c)
	rep, m := run(t, 0, 0, path).ReportAndMap()
	if m.Axis != strag.AxisSteps || len(m.Columns) != 20 || m.PerColumn != 1 || len(m.Rows) != 64 || m.Ranks != 64 {
		t.Fatalf("axis %v, %d columns of %d, %d rows of %d ranks", m.Axis, len(m.Columns), m.PerColumn, len(m.Rows), m.Ranks)
	}
	thr := rep.ThresholdMs
	for _, r := range m.Rows {
		late := 0
		for _, cell := range r.Cells {
			if cell.LagMs > thr {
				late++
			}
		}
		switch r.Rank {
		case 45:
			if !r.Straggler || r.Kind != strag.Chronic || late < 18 {
				t.Errorf("chronic rank 45: %+v, %d late cells", r, late)
			}
		case 12:
			step := truth.Stragglers[0].Steps[0]
			if !r.Straggler || r.Kind != strag.OneOff || late == 0 || late > 3 || !lateAt(r, m, uint64(step), thr) {
				t.Errorf("one-off rank 12 (late at step %d): %+v, %d late cells", step, r, late)
			}
		default:
			if r.Straggler || late > 0 {
				t.Errorf("rank %d: %+v", r.Rank, r)
			}
		}
	}
}

func lateAt(r strag.LagRow, m strag.LagMap, step uint64, thr float64) bool {
	for _, c := range r.Cells {
		if col := m.Columns[c.Col]; col.From <= step && step <= col.To {
			return c.LagMs > thr
		}
	}
	return false
}

// crafted70 writes a log of ranks ranks of one host with ops AllReduce calls each and no
// progress line, rank late lateMs later than the others.
func crafted70(t *testing.T, ranks, ops, late, lateMs int) string {
	t.Helper()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	stamp := func(d time.Duration) string { return "[" + t0.Add(d).Format("2006-01-02 15:04:05.000000") + "] " }
	p := filepath.Join(t.TempDir(), "crafted.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	// Straight to the file: a builder doubling to the 7 MB log, and its copy for the write,
	// were a third of TestLagMapBounded's time.
	b := bufio.NewWriterSize(f, 64<<10)
	for r := range ranks {
		fmt.Fprintf(b, "%snode-a:%d:%d [0] NCCL INFO ncclCommInitRank comm 0x5500%d rank %d nranks %d cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init COMPLETE\n",
			stamp(0), 100+r, 100+r, r, r, ranks)
	}
	for op := range ops {
		for r := range ranks {
			d := time.Second + time.Duration(op)*100*time.Millisecond + time.Duration(r%7)*100*time.Microsecond
			if r == late {
				d += time.Duration(lateMs) * time.Millisecond
			}
			fmt.Fprintf(b, "%snode-a:%d:%d [0] NCCL INFO AllReduce: opCount %x sendbuff 0x7f0000 recvbuff 0x7f0000 count 1024 datatype 7 op 0 root 0 comm 0x5500%d [nranks=%d] stream 0x5600%d\n",
				stamp(d), 100+r, 100+r, op, r, ranks, r)
		}
	}
	err = b.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLagMapBounded: a log without steps maps call positions; 450 of them share 150 columns,
// 3 each, and of 70 ranks the map shows 64, the straggler among them; chunks and workers
// give the same map.
func TestLagMapBounded(t *testing.T) {
	t.Parallel()
	path := crafted70(t, 70, 450, 66, 50)
	rep, m := run(t, 0, 0, path).ReportAndMap()
	if m.Axis != strag.AxisPositions || len(m.Columns) != 150 || m.PerColumn != 3 || len(m.Rows) != strag.MaxMapRows || m.Ranks != 70 {
		t.Fatalf("axis %v, %d columns of %d, %d rows of %d ranks", m.Axis, len(m.Columns), m.PerColumn, len(m.Rows), m.Ranks)
	}
	if c := m.Columns[1]; c.From != 3 || c.To != 5 {
		t.Fatalf("column 1: %+v", c)
	}
	if len(rep.Stragglers) != 1 || rep.Stragglers[0].Rank != 66 {
		t.Fatalf("stragglers %+v", rep.Stragglers)
	}
	var found bool
	for _, r := range m.Rows {
		if r.Rank == 66 {
			found = r.Straggler && r.Kind == strag.Chronic && len(r.Cells) == 150 && r.Cells[0].LagMs > 45
		}
	}
	if !found {
		t.Fatalf("rank 66 not shown as a chronic straggler: %+v", m.Rows)
	}
	want, _ := json.Marshal(m)
	ways := []struct{ jobs, chunk int }{{1, 4 << 10}, {2, 700}, {2, 64 << 10}}
	if testing.Short() {
		ways = ways[1:2] // -short: the 7 MB log read once more, not three times: in 700-byte chunks by two workers, the way that cuts it most (go test ./... reads it all three ways)
	}
	for _, o := range ways {
		_, got := run(t, o.jobs, o.chunk, path).ReportAndMap()
		if g, _ := json.Marshal(got); !bytes.Equal(g, want) {
			t.Fatalf("jobs %d, chunks %d: the map differs", o.jobs, o.chunk)
		}
	}
}

// TestLagMapUntimed: with no timed call the map is empty, and the report says why.
func TestLagMapUntimed(t *testing.T) {
	t.Parallel()
	c := fullJob() // the map's rows and caps are the 64-rank job's
	c.Timestamps, c.ArrivalJitter = "", 0
	path, _ := write(t, c)
	rep, m := run(t, 0, 0, path).ReportAndMap()
	if len(m.Rows) != 0 || len(m.Columns) != 0 || rep.Note == "" {
		t.Fatalf("untimed: %+v, note %q", m, rep.Note)
	}
}

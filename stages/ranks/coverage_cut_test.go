package ranks

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInFlight: ends a few calls apart are one pack (a log that ends while its job issues
// calls); two ends are a hang's shape; ranks far behind a pack leave the pack explained and
// themselves judged.
func TestInFlight(t *testing.T) {
	for _, c := range []struct {
		ends []int64
		want int64
	}{
		{[]int64{5, 6, 7}, 5},
		{[]int64{0, 1, 2}, 0},
		{[]int64{76, 77, 78, 79, 80, 81, 83, 85, 86}, 76},
		{[]int64{10, 17, 18}, 10},                // a gap under farGap is a rank running behind
		{[]int64{11, 12}, -1},                    // culprit and waiters
		{[]int64{40, 200}, -1},                   // culprit and waiters
		{[]int64{40, 200, 201}, 200},             // far behind a pack that went on
		{[]int64{40, 41, 200, 201, 202}, 200},    // two far behind
		{[]int64{0, 1, 2, 50}, -1},               // one far ahead: the others are behind it
		{[]int64{60, 100, 101, 120, 121}, 60},    // gaps wide, but no wider than the pack's spread
		{[]int64{1, 30, 40, 50, 60}, 1},          // as wide apart as behind
		{[]int64{1, 50, 51, 52, 53, 54, 55}, 50}, // 49 behind a pack of spread 5
	} {
		if got := inFlight(c.ends); got != c.want {
			t.Errorf("inFlight(%v) = %d, want %d", c.ends, got, c.want)
		}
	}
}

// TestLogEndsInCalls: a log read from its start that ends while its ranks issue calls (a job
// still running, stopped by a time limit, or cut with head) stops its ranks a few calls apart;
// that is no sign of a hang, for hang or check. The shape of a hang (ranks waiting at one
// call, the culprit behind), a rank far behind the others, and a rank behind that ended its
// communicator still are.
func TestLogEndsInCalls(t *testing.T) {
	for _, c := range []struct {
		name    string
		ends    []int
		destroy []int // ranks whose world communicator ends in Destroy after their calls
		want    []string
		cut     bool
	}{
		{name: "in flight", ends: []int{10, 11, 12, 12}, cut: true},
		{name: "in flight, a rank without calls", ends: []int{0, 1, 2, 2}, cut: true},
		{name: "hang shape", ends: []int{11, 12, 12, 12}, want: []string{"0"}},
		{name: "two culprits at one call", ends: []int{11, 11, 12, 12}, want: []string{"0", "1"}},
		{name: "far behind a pack", ends: []int{5, 40, 41, 42}, want: []string{"0"}},
		{name: "behind after Destroy", ends: []int{10, 11, 12, 12}, destroy: []int{0}, want: []string{"0", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ranksOf(t, writeLog(t, worldLog(c.ends, c.destroy)))
			f := onlyHang(t, r)
			if got := suspectLabels(f); !slices.Equal(got, c.want) {
				t.Errorf("suspects %v, want %v", got, c.want)
			}
			if f.Coverage.EndsCut != c.cut || c.cut && f.Coverage.CutWhy != CutInFlight {
				t.Errorf("coverage %+v: EndsCut %v, want %v (why %q)", f.Coverage, f.Coverage.EndsCut, c.cut, CutInFlight)
			}
			var short []string
			for _, fd := range r.Check() {
				for _, m := range fd.Short {
					short = append(short, m.Label())
				}
			}
			want := c.want
			if len(c.destroy) > 0 {
				want = []string{"0", "1"}
			}
			if !slices.Equal(short, want) {
				t.Errorf("check: ranks short %v, want %v", short, want)
			}
		})
	}
}

// TestPairsOfRanksInFlight: two ranks of a pair a call apart are a hang's shape on their own;
// where the log ends while their processes issue calls a few apart on the world communicator,
// the pair's ends are explained too. Where the world's ranks have the hang's shape, they are
// not.
func TestPairsOfRanksInFlight(t *testing.T) {
	for _, c := range []struct {
		world []int
		want  []string
	}{
		{[]int{10, 11, 12, 12}, nil},
		{[]int{11, 12, 12, 12}, []string{"0"}},
	} {
		log := worldLog(c.world, nil) + pairLog(0, 1, []int{3, 4})
		var got []string
		for _, f := range ranksOf(t, writeLog(t, log)).Hang() {
			if f.Group.NRanks == 2 {
				got = append(got, suspectLabels(f)...)
				if c.want == nil && f.Coverage.CutWhy != CutProcs {
					t.Errorf("world %v: pair coverage %+v, want its ends explained by its processes", c.world, f.Coverage)
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("world %v: pair suspects %v, want %v", c.world, got, c.want)
		}
	}
}

// worldLog is the log of a 4-rank job, two ranks a node, whose rank i issues ends[i]
// AllReduces on the world communicator, interleaved call by call; the ranks in destroy then
// print Destroy COMPLETE for it.
func worldLog(ends, destroy []int) string {
	var b strings.Builder
	for rk := range ends {
		fmt.Fprintf(&b, "%s NCCL INFO ncclCommInitRank comm 0x%x rank %d nranks %d cudaDev %d nvmlDev %d busId 18000 commId 0x3c1d5e7f9a2b4c6d - Init COMPLETE\n",
			procHead(rk), worldPtr(rk), rk, len(ends), rk%2, rk%2)
	}
	for k := 0; k < slices.Max(ends); k++ {
		for rk, n := range ends {
			if k < n {
				fmt.Fprintf(&b, "%s NCCL INFO AllReduce: opCount %x sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count 1048576 datatype 7 op 0 root 0 comm 0x%x [nranks=%d] stream 0x55d4c1f3a2b0\n",
					procHead(rk), k, worldPtr(rk), len(ends))
			}
		}
	}
	for _, rk := range destroy {
		fmt.Fprintf(&b, "%s NCCL INFO comm 0x%x rank %d nranks %d cudaDev %d busId 18000 - Destroy COMPLETE\n",
			procHead(rk), worldPtr(rk), rk, len(ends), rk%2)
	}
	return b.String()
}

// pairLog is the log of a communicator of the processes of world ranks a and b, in which
// they issue ends[0] and ends[1] Sends.
func pairLog(a, b int, ends []int) string {
	var sb strings.Builder
	for i, rk := range []int{a, b} {
		fmt.Fprintf(&sb, "%s NCCL INFO ncclCommInitRank comm 0x%x rank %d nranks 2 cudaDev %d nvmlDev %d busId 18000 commId 0x5a5a5a5a5a5a5a5a - Init COMPLETE\n",
			procHead(rk), pairPtr(rk), i, rk%2, rk%2)
	}
	for k := 0; k < slices.Max(ends); k++ {
		for i, rk := range []int{a, b} {
			if k < ends[i] {
				fmt.Fprintf(&sb, "%s NCCL INFO Send: opCount %x sendbuff 0x7f3a1c000000 recvbuff 0x0 count 4096 datatype 7 op 0 root %d comm 0x%x [nranks=2] stream 0x55d4c1f3a2b0\n",
					procHead(rk), k, 1-i, pairPtr(rk))
			}
		}
	}
	return sb.String()
}

func procHead(rk int) string {
	return fmt.Sprintf("gpu-node-%02d:%d:%d [%d]", rk/2, 4100+rk, 4100+rk, rk%2)
}

func worldPtr(rk int) int { return 0x55d4c2a80000 + rk<<12 }
func pairPtr(rk int) int  { return 0x55d4c3b80000 + rk<<12 }

// writeLog writes text to a file of its own and returns its path.
func writeLog(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nccl.log")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

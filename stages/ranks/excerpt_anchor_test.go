package ranks

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// excerptCall is one AllReduce of rank rk in an excerpt without Init lines: its opCount and
// its count (every opCount its own count, unless a test makes one differ).
type excerptCall struct {
	rk    int
	op    uint64
	count int64
}

// excerptLog writes calls, in order, on a 2-rank (or n-rank) communicator of one comm
// pointer per rank.
func excerptLog(nranks int, calls []excerptCall) string {
	var b strings.Builder
	for _, c := range calls {
		count := c.count
		if count == 0 {
			count = 1000 + int64(c.op)
		}
		fmt.Fprintf(&b, "%s NCCL INFO AllReduce: opCount %x sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count %d datatype 7 op 0 root 0 comm 0x%x [nranks=%d] stream 0x55d4c1f3a2b0\n",
			procHead(c.rk), c.op, count, worldPtr(c.rk), nranks)
	}
	return b.String()
}

// run is the calls of rank rk with opCounts from..to, one each.
func run(rk int, from, to uint64) []excerptCall {
	var out []excerptCall
	for op := from; op <= to; op++ {
		out = append(out, excerptCall{rk: rk, op: op})
	}
	return out
}

// TestExcerptAnchorsByOpCount: where a communicator's opCounts go up call by call, a rank's
// first line in an excerpt anchors it at its opCount: ranks are compared at the same call,
// not at the same distance from their first lines, whatever order their first lines come in
// (the last lines of a 2-rank log: one rank's only call is the other's eleventh; a rank whose
// first opCount is 0 after one at 1; a rank placed between two others across calls no rank
// holds yet). A real difference is still found at its call.
func TestExcerptAnchorsByOpCount(t *testing.T) {
	mismatch := append(run(0, 0x60, 0x6a), run(1, 0x65, 0x6a)...)
	mismatch[len(mismatch)-4].count = 7 // rank 1's opCount 0x67
	for _, c := range []struct {
		name  string
		calls []excerptCall
		want  string // check's finding, "" for none
	}{
		{"one call, the other's eleventh", append(run(0, 0x60, 0x60), append([]excerptCall{{rk: 1, op: 0x6a}}, run(0, 0x61, 0x6a)...)...), ""},
		{"opCount 0 after 1", append(run(0, 1, 1), append(run(1, 0, 5), run(0, 2, 5)...)...), ""},
		{"between, across calls not seen yet", append(run(0, 1, 1), append(run(2, 3, 3), append(run(1, 2, 6), append(run(0, 2, 6), run(2, 4, 6)...)...)...)...), ""},
		{"a real difference", mismatch, "mismatch count at 7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			nranks := 2
			for _, call := range c.calls {
				nranks = max(nranks, call.rk+1)
			}
			r := ranksOf(t, writeLog(t, excerptLog(nranks, c.calls)))
			var got []string
			for _, f := range r.Check() {
				got = append(got, fmt.Sprintf("%s %s at %d", f.Kind, f.What, f.Index))
			}
			if strings.Join(got, "; ") != c.want {
				t.Errorf("check: %v, want %q", got, c.want)
			}
			for _, f := range r.Hang() {
				if len(f.Suspects) > 0 {
					t.Errorf("hang suspects %v", suspectLabels(f))
				}
			}
		})
	}
}

// TestExcerptAbsentRanks: a rank without lines is a suspect where the input could show it:
// not where its Init line is cut off while its calls are there (another communicator of the
// size grouped by inference may hold it), nor in an excerpt too short for a healthy rank
// behind the others to show. In an excerpt long enough it still is.
func TestExcerptAbsentRanks(t *testing.T) {
	pairs := ""
	for rk := 0; rk < 4; rk += 2 { // ranks 0 and 2 print their Init line; 1 and 3 are past theirs
		pairs += fmt.Sprintf("%s NCCL INFO ncclCommInitRank comm 0x%x rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x%x - Init COMPLETE\n",
			procHead(rk), worldPtr(rk), 0x5a00+rk)
	}
	var calls []excerptCall
	for op := uint64(0x40); op < 0x60; op++ {
		for rk := 0; rk < 4; rk++ {
			calls = append(calls, excerptCall{rk: rk, op: op})
		}
	}
	pairs += excerptLog(2, calls)
	short, long := excerptLog(4, withoutRank(calls[:12], 3)), excerptLog(4, withoutRank(calls, 3))
	for _, c := range []struct {
		name, log string
		want      []string
	}{
		{"pairs whose other rank's Init is cut off", pairs, nil},
		{"3 calls of each rank", short, nil},
		{"32 calls of each rank", long, []string{"absent -1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range ranksOf(t, writeLog(t, c.log)).Hang() {
				got = append(got, suspectLabels(f)...)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("suspects %v, want %v", got, c.want)
			}
		})
	}
}

// withoutRank is calls without rank rk's.
func withoutRank(calls []excerptCall, rk int) []excerptCall {
	return slices.DeleteFunc(slices.Clone(calls), func(c excerptCall) bool { return c.rk == rk })
}

// TestExcerptRegroupsPairs: in an excerpt of a 2-rank job that holds no Init line, where one
// process's first line is on its world communicator and the other's on the split of the same
// size, the communicators are paired by their calls, not by which each process used first,
// with opCounts going up or all 0; a real difference still shows.
func TestExcerptRegroupsPairs(t *testing.T) {
	line := func(rk int, split bool, op uint64, count int64) string {
		ptr := worldPtr(rk)
		if split {
			ptr = pairPtr(rk)
		}
		return fmt.Sprintf("%s NCCL INFO AllReduce: opCount %x sendbuff 0x7f3a1c000000 recvbuff 0x7f3a1c000000 count %d datatype 7 op 0 root 0 comm 0x%x [nranks=2] stream 0x55d4c1f3a2b0\n",
			procHead(rk), op, count, ptr)
	}
	log := func(zeroOps bool, odd int64) string {
		var b strings.Builder
		op := func(v uint64) uint64 {
			if zeroOps {
				return 0
			}
			return v
		}
		b.WriteString(line(0, false, op(0x50), 50))
		b.WriteString(line(1, true, op(0x0c), 12))
		for k := uint64(1); k < 24; k++ {
			count := int64(50 + k)
			b.WriteString(line(1, false, op(0x50+k-1), count-1))
			b.WriteString(line(0, false, op(0x50+k), count))
			if k%6 == 0 {
				b.WriteString(line(0, true, op(0x0c+k/6-1), int64(12+k/6-1)))
				b.WriteString(line(1, true, op(0x0c+k/6), int64(12+k/6)))
			}
		}
		b.WriteString(line(1, false, op(0x50+23), 50+23+odd))
		b.WriteString(line(0, true, op(0x0c+3), 12+3))
		return b.String()
	}
	for _, c := range []struct {
		name    string
		zeroOps bool
		odd     int64
		want    string
	}{
		{"opCounts", false, 0, ""},
		{"opCounts all 0", true, 0, ""},
		{"opCounts, a real difference", false, 1, "mismatch count at 23"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ranksOf(t, writeLog(t, log(c.zeroOps, c.odd)))
			var got []string
			for _, f := range r.Check() {
				got = append(got, fmt.Sprintf("%s %s at %d", f.Kind, f.What, f.Index))
			}
			if strings.Join(got, "; ") != c.want {
				t.Errorf("check: %v, want %q", got, c.want)
			}
			for _, f := range r.Hang() {
				if len(f.Suspects) > 0 {
					t.Errorf("hang suspects %v", suspectLabels(f))
				}
			}
		})
	}
}

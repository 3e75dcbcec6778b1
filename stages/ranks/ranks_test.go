package ranks

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// ranksOf reads each file into its own Ranks, as the pipeline does, and merges them in order.
func ranksOf(t *testing.T, paths ...string) *Ranks {
	t.Helper()
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	all := NewRanks(&stages.Config{})
	for _, path := range paths {
		r := NewRanks(&stages.Config{})
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for n := int64(1); sc.Scan(); n++ {
			var l parser.Line
			p.Parse(sc.Bytes(), &l)
			e, ok := rankEvent(n, sc.Bytes(), &l)
			if !ok {
				continue
			}
			r.Add(path, &e)
		}
		f.Close()
		all.Merge(r)
	}
	return all
}

// rankEvent is line n (text, parsed as l) as the ranks stage holds it; ok is false for a line
// it takes nothing from.
func rankEvent(n int64, text []byte, l *parser.Line) (e RankEvent, ok bool) {
	var es events
	if !es.add(n, text, l) {
		return e, false
	}
	return es.rankEvent(0), true
}

func fixture(name string) string { return filepath.Join("testdata", "ranks", name) }

// onlyHang returns the one communicator's hang finding.
func onlyHang(t *testing.T, r *Ranks) HangFinding {
	t.Helper()
	fs := r.Hang()
	if len(fs) != 1 {
		t.Fatalf("%d communicators, want 1", len(fs))
	}
	return fs[0]
}

func suspectLabels(f HangFinding) []string {
	var out []string
	for _, s := range f.Suspects {
		if s.Member != nil {
			out = append(out, s.Member.Label())
		} else {
			out = append(out, "absent "+itoa(s.Rank))
		}
	}
	return out
}

// TestHangCleanAbort: PyTorch's destroy_process_group aborts every communicator, so a healthy
// job ends in Abort COMPLETE on every rank; that is no evidence against any one of them. An
// Abort where one rank is also behind still leaves that rank the suspect.
func TestHangCleanAbort(t *testing.T) {
	if f := onlyHang(t, ranksOf(t, fixture("clean-abort.log"))); len(f.Suspects) != 0 {
		t.Errorf("suspects on a clean shutdown: %v", suspectLabels(f))
	}
	f := onlyHang(t, ranksOf(t, fixture("stop-then-abort.log")))
	if got := suspectLabels(f); !slices.Equal(got, []string{"2"}) {
		t.Errorf("suspects %v, want [2]", got)
	}
	if ev := f.Suspects[0].Evidence; !slices.Equal(ev, []Evidence{EvBehind}) {
		t.Errorf("evidence %v, want [behind] (every rank aborted)", ev)
	}
}

// TestExcerptAlignedByOpCount: two ranks pasted from the middle of a log start at different
// opCounts; their calls are compared where they overlap, and their different ends are where
// the excerpt cut them.
func TestExcerptAlignedByOpCount(t *testing.T) {
	r := ranksOf(t, fixture("excerpt.log"))
	if fs := r.Check(); len(fs) != 0 {
		t.Errorf("check findings on an excerpt of a healthy job: %+v", fs[0])
	}
	f := onlyHang(t, r)
	if len(f.Suspects) != 0 {
		t.Errorf("suspects on an excerpt: %v", suspectLabels(f))
	}
	if c := f.Coverage; !c.Excerpt || !c.StartsDiffer || !c.EndsCut {
		t.Errorf("coverage %+v: want an excerpt whose ranks start and stop at different calls", c)
	}
	fs := ranksOf(t, fixture("excerpt-mismatch.log")).Check()
	if len(fs) != 1 || fs[0].Kind != KindMismatch || fs[0].What != "count" || fs[0].Index != 2 {
		t.Fatalf("findings %+v, want one count mismatch at call 2 (opCount f)", fs)
	}
}

// TestNodeLog: the log of one node of two names its 8 ranks and, in the layout line, the two
// nodes; the other node's ranks are not suspects. A rank missing from the node the log covers
// is.
func TestNodeLog(t *testing.T) {
	f := onlyHang(t, ranksOf(t, fixture("node0-of-2.log")))
	if len(f.Suspects) != 0 {
		t.Errorf("suspects in a node's log: %v", suspectLabels(f))
	}
	c := f.Coverage
	if !c.SomeNodes() || c.Nodes != 2 || c.NodesSeen != 1 || len(c.NodeRanks) != 8 || c.NodeRanks[7] != 7 {
		t.Errorf("coverage %+v: want node 1 of 2, ranks 0-7", c)
	}
	f = onlyHang(t, ranksOf(t, fixture("node0-rank5-missing.log")))
	if got := suspectLabels(f); !slices.Equal(got, []string{"absent 5"}) {
		t.Errorf("suspects %v, want only the absent rank 5", got)
	}
}

// TestOneProcessManyGPUs: one process drives four GPUs, one comm pointer each, no Init lines:
// they are the four ranks of one communicator, and the device that issued one call fewer is
// the suspect.
func TestOneProcessManyGPUs(t *testing.T) {
	for _, name := range []string{"one-process-4gpu.log", "rccl-one-process-globalrank.log"} {
		f := onlyHang(t, ranksOf(t, fixture(name)))
		if f.Present != 4 || len(f.Suspects) != 0 {
			t.Errorf("%s: %d ranks present, suspects %v; want 4 and none", name, f.Present, suspectLabels(f))
		}
	}
	f := onlyHang(t, ranksOf(t, fixture("one-process-4gpu-dev2-behind.log")))
	if got := suspectLabels(f); !slices.Equal(got, []string{"gpu1:13135/dev2"}) {
		t.Errorf("suspects %v, want the process's device 2", got)
	}
	if fs := ranksOf(t, fixture("one-process-4gpu-dev2-behind.log")).Check(); len(fs) != 1 || fs[0].Kind != KindLength {
		t.Errorf("check: %+v, want one length finding", fs)
	}
}

// TestTwoJobsRefused: per-process files of two unrelated 2-rank jobs, without Init lines, fall
// into one inferred group of four processes: more than its two ranks, so no verdict.
func TestTwoJobsRefused(t *testing.T) {
	paths, err := filepath.Glob(fixture("two-jobs/*.log"))
	if err != nil || len(paths) != 4 {
		t.Fatalf("fixture: %v %v", paths, err)
	}
	r := ranksOf(t, paths...)
	f := onlyHang(t, r)
	if f.Coverage.Conflict == "" || len(f.Suspects) != 0 {
		t.Errorf("conflict %q, suspects %v: want a conflict and no suspect", f.Coverage.Conflict, suspectLabels(f))
	}
	if fs := r.Check(); len(fs) != 0 {
		t.Errorf("check findings on two jobs taken for one: %+v", fs)
	}
}

// TestCheckNamesEveryField: a call whose count and datatype both differ is reported as such.
func TestCheckNamesEveryField(t *testing.T) {
	fs := ranksOf(t, fixture("count-and-dtype.log")).Check()
	if len(fs) != 1 || fs[0].What != "count,datatype" {
		t.Fatalf("findings %+v, want one naming count,datatype", fs)
	}
}

// TestExcerptAlignedByOverlap: where opCounts are all 0 (2.8, or 2.27+ without network
// operations), two ranks' pasted lines that start at different calls are placed where they
// overlap longest; a real difference inside the overlap is still found, at its place.
func TestExcerptAlignedByOverlap(t *testing.T) {
	r := ranksOf(t, fixture("excerpt-opcount0.log"))
	if fs := r.Check(); len(fs) != 0 {
		t.Errorf("check findings on an excerpt of a healthy job: %+v", fs[0])
	}
	f := onlyHang(t, r)
	if c := f.Coverage; !c.StartsDiffer || c.First != 0 || c.Last != 4 || len(f.Suspects) != 0 {
		t.Errorf("coverage %+v, suspects %v: want calls 0-4, ranks starting at different calls, no suspect", c, suspectLabels(f))
	}
	fs := ranksOf(t, fixture("excerpt-opcount0-mismatch.log")).Check()
	if len(fs) != 1 || fs[0].What != "count" || fs[0].Index != 2 {
		t.Fatalf("findings %+v, want one count mismatch at call 2", fs)
	}
}

// TestRanksPerFileLikeOne: an excerpt read as one interleaved file, or as one file per rank
// in either order (the later file's rank starting before or after the earlier's), gives the
// same placement and the same findings.
func TestRanksPerFileLikeOne(t *testing.T) {
	for _, name := range []string{"excerpt.log", "excerpt-mismatch.log", "excerpt-opcount0.log", "excerpt-opcount0-mismatch.log"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(fixture(name))
			if err != nil {
				t.Fatal(err)
			}
			byProc := map[string][]string{}
			var order []string
			for _, l := range strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n") {
				head, _, _ := strings.Cut(l, " ")
				if byProc[head] == nil {
					order = append(order, head)
				}
				byProc[head] = append(byProc[head], l)
			}
			dir := t.TempDir()
			var paths []string
			for i, h := range order {
				p := filepath.Join(dir, itoa(int64(i))+".log")
				if err := os.WriteFile(p, []byte(strings.Join(byProc[h], "")), 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, p)
			}
			want := summary(ranksOf(t, fixture(name)))
			if got := summary(ranksOf(t, paths...)); got != want {
				t.Errorf("per-rank files: %s\none file: %s", got, want)
			}
			slices.Reverse(paths)
			if got := summary(ranksOf(t, paths...)); got != want {
				t.Errorf("per-rank files, reversed: %s\none file: %s", got, want)
			}
		})
	}
}

// summary prints where each rank of each communicator starts and stops and what check finds.
func summary(r *Ranks) string {
	var b strings.Builder
	for _, g := range r.Groups() {
		for _, m := range g.Members {
			fmt.Fprintf(&b, "%s:%d@%d-%d ", m.Host, m.Pid, m.Start, m.Through())
		}
	}
	for _, f := range r.Check() {
		fmt.Fprintf(&b, "| %s %s %d ", f.Kind, f.What, f.Index)
	}
	return b.String()
}

// Merging inputs joins their communicators; what a process's comm pointers are bound to must
// be the joined communicator, or every input's own reference sequence stays reachable to
// the end of the run (memory growing with the inputs of a per-process directory).
func TestMergeLetsJoinedGroupsGo(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for rank := range 4 {
		var b strings.Builder
		fmt.Fprintf(&b, "h:%d:%d [%d] NCCL INFO comm 0x%x rank %d nranks 4 cudaDev %d nvmlDev %d busId %d0 commId 0xabc - Init COMPLETE\n",
			rank+10, rank+10, rank, rank+1, rank, rank, rank, rank)
		for op := range 50 {
			fmt.Fprintf(&b, "h:%d:%d [%d] NCCL INFO AllReduce: opCount %x sendbuff 0x1 recvbuff 0x2 count 8 datatype 7 op 0 root 0 comm 0x%x [nranks=4] stream 0x3\n",
				rank+10, rank+10, rank, op, rank+1)
		}
		p := filepath.Join(dir, itoa(int64(rank))+".log")
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	r := ranksOf(t, paths...)
	if len(r.groups) != 1 {
		t.Fatalf("%d communicators, want 1", len(r.groups))
	}
	for k, p := range r.procs {
		for ptr, b := range p.bind.all() {
			if r.groups[b.g.Key] != b.g {
				t.Errorf("%s pid %d comm %#x is bound to a communicator that was joined into another", k.file, k.pid, ptr)
			}
		}
	}
}

// TestHangAbortedAloneAtTop: one rank's communicator ends in Abort at the call every rank got
// to, the others' do not. No rank is a suspect (a log cut during a shutdown looks the same),
// but the verdict must not say that none aborted alone; with every rank's Abort it may.
func TestHangAbortedAloneAtTop(t *testing.T) {
	data, err := os.ReadFile(fixture("clean-abort.log"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if !strings.Contains(l, "Abort COMPLETE") || strings.Contains(l, " rank 0 ") {
			kept = append(kept, l)
		}
	}
	path := filepath.Join(t.TempDir(), "alone.log")
	if err := os.WriteFile(path, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := onlyHang(t, ranksOf(t, path))
	if len(f.Suspects) != 0 {
		t.Errorf("suspects %v, want none", suspectLabels(f))
	}
	v := hangVerdict(f)
	if strings.Contains(v, "none aborted alone") || !strings.Contains(v, "rank 0's communicator ends in Abort") {
		t.Errorf("verdict %q: want rank 0's Abort named", v)
	}
	if v := hangVerdict(onlyHang(t, ranksOf(t, fixture("clean-abort.log")))); !strings.Contains(v, "none aborted alone") {
		t.Errorf("verdict on a clean shutdown %q", v)
	}
}

package ranks

import (
	"fmt"
	"testing"
)

// excerptWatchdog is an excerpt of an 8-rank job's output in which every rank timed out on
// work 57 but only ranks 0, 3 and 4 have lines: ranks 0 and 3 tag theirs with the group, rank
// 4's timeout line carries only the launcher's `[rank4]:` (and, where queue is set, its queue
// line the group's tag).
func excerptWatchdog(queue4 bool) []string {
	caught := func(r int, tag string) string {
		return fmt.Sprintf("[rank%d]:[E0412 00:04:10.50%d000000 ProcessGroupNCCL.cpp:607] %s Watchdog caught collective operation timeout: "+
			"WorkNCCL(SeqNum=57, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.", r, r, tag)
	}
	queue := func(r int) string {
		return fmt.Sprintf("[rank%d]:[E0412 00:04:10.50%d100000 ProcessGroupNCCL.cpp:1664] [PG 1 Rank %d] Timeout at NCCL work: 57, "+
			"last enqueued NCCL work: 57, last completed NCCL work: 56.", r, r, r)
	}
	lines := []string{caught(0, "[PG 1 Rank 0]"), queue(0), caught(3, "[PG 1 Rank 3]"), queue(3), caught(4, "[Rank 4]")}
	if queue4 {
		lines = append(lines, queue(4))
	}
	return lines
}

// TestPGExcerptSharedTimeout: in an excerpt where every rank with lines timed out on the same
// work, the ranks with no line at all (1 and 2) are not suspects: the log lacks their output,
// which says nothing against them. Rank 4's untagged timeout line counts in group 1, whose
// timeouts it matches, rather than making a group of its own and leaving group 1 as ranks
// 0-3. Every cut gives the same verdict.
func TestPGExcerptSharedTimeout(t *testing.T) {
	for _, queue4 := range []bool{false, true} {
		lines := excerptWatchdog(queue4)
		for cut := range len(lines) + 1 {
			fs := ranksOfLines(t, "excerpt.log", lines, cut).PGHang()
			if len(fs) != 1 || fs[0].PG.ID != 1 {
				t.Fatalf("queue4 %v cut %d: groups %s; want group 1 alone", queue4, cut, pgHangText(fs))
			}
			f := fs[0]
			var rows []string
			for _, r := range f.Rows {
				rows = append(rows, fmt.Sprintf("%d %s", r.Rank, r.State))
			}
			want := "[0 entered 1 no-line 2 no-line 3 entered 4 entered]"
			if fmt.Sprint(rows) != want || f.TimedOut != 3 || len(f.Suspects) != 0 {
				t.Errorf("queue4 %v cut %d: rows %v, %d timed out, %d suspects; want %s, 3, none\n%s",
					queue4, cut, rows, f.TimedOut, len(f.Suspects), want, pgHangText(fs))
			}
		}
	}
}

// TestPGOneSilentRankAccused: one rank silent while every other rank of the group timed out
// on the same work is the straggler's signature, not an excerpt's gap: it stays a suspect.
func TestPGOneSilentRankAccused(t *testing.T) {
	var lines []string
	for _, r := range []int{0, 1, 3} {
		lines = append(lines, fmt.Sprintf("[PG 1 Rank %d] Timeout at NCCL work: 9, last enqueued NCCL work: 9, last completed NCCL work: 8.", r))
	}
	fs := ranksOfLines(t, "one.log", lines, 1).PGHang()
	if len(fs) != 1 || len(fs[0].Suspects) != 1 || fs[0].Suspects[0].Row.Rank != 2 || fs[0].Suspects[0].Score != 70 {
		t.Errorf("%s; want rank 2 the one suspect, score 70", pgHangText(fs))
	}
}

// TestPGUntaggedTwoGroups: an untagged timeout line whose work two named groups both timed
// out on stays in a group of its own: which group it is of is not said.
func TestPGUntaggedTwoGroups(t *testing.T) {
	lines := excerptWatchdog(false)
	for _, r := range []int{0, 1} {
		lines = append(lines, fmt.Sprintf("[PG 2 Rank %d] Timeout at NCCL work: 57, last enqueued NCCL work: 57, last completed NCCL work: 56.", r))
	}
	fs := ranksOfLines(t, "two.log", lines, 2).PGHang()
	if len(fs) != 3 {
		t.Errorf("%s; want groups 1, 2 and the untagged line's", pgHangText(fs))
	}
}

// TestPGUntaggedOtherRank: a process's untagged timeout line may give a rank other than its
// tagged lines' in the group (PyTorch 2.4-2.5 printed `[rank15]:... [Rank 1] Watchdog caught
// ...` beside `[rank15]:... [PG ID 11 PG GUID 112 Rank 0] Exception ...` on the same work):
// the launcher's label says both are one process, one row of the group, not two ranks.
func TestPGUntaggedOtherRank(t *testing.T) {
	lines := []string{
		"[rank15]:[E218 04:54:22.883327702 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: " +
			"WorkNCCL(SeqNum=57, OpType=ALLREDUCE, NumelIn=32, NumelOut=32, Timeout(ms)=600000) ran for 600045 milliseconds before timing out.",
		"[rank15]:[E218 04:54:22.883358915 ProcessGroupNCCL.cpp:1795] [PG ID 11 PG GUID 112 Rank 0] Exception (either an error or timeout) " +
			"detected by watchdog at work: 57, last enqueued NCCL work: 57, last completed NCCL work: 56.",
	}
	fs := ranksOfLines(t, "wd.log", lines, len(lines)).PGHang()
	if len(fs) != 1 || len(fs[0].Rows) != 1 || fs[0].Rows[0].Rank != 0 || fs[0].Rows[0].W.RanForMs != 600045 {
		t.Errorf("want group 11 with one row, rank 0, which ran for 600045 ms:\n%s", pgHangText(fs))
	}
}

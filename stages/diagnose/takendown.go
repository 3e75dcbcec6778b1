package diagnose

import (
	"bytes"
	"slices"

	"github.com/nccllog/nccllog/stages"
)

// PyTorch's watchdog, on a collective that failed or timed out, says so before it ends the
// process (ProcessGroupNCCL's handleException, every version since 1.x; 2.4 prints the two
// sentences as two lines):
//
//	[rank6]:[E624 04:14:29.228 ProcessGroupNCCL.cpp:1664] [Rank 6] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
//	[rank6]:[E624 04:14:29.228 ProcessGroupNCCL.cpp:1670] [Rank 6] To avoid data inconsistency, we are taking the entire process down.
//
// Either proves the rank's fault even where the timeout's own line is not in the log (an
// excerpt may keep only the second: 2.4+ prints it alone on its line): a watchdog item with
// no work (Seq -1), named takenDown, which joins the ranks' timeouts. A rank that printed both
// counts once (sameTakenDown).

var (
	takenDownHead = []byte("Some NCCL operations have failed or timed out")
	takenDownTail = []byte("we are taking the entire process down")
)

// mayEndTakenDown reports whether other text t may end with either sentence, glued behind
// what a process printed without its newline (a progress bar's `78% 25/32 [01:12<00:20,
// 2.86s/it][E ProcessGroupNCCL.cpp:325] Some NCCL operations have failed or timed out. ...
// we are taking the entire process down.`): it ends with `down.` or `data.`. Every line of
// other text that mayBeRare does not let through takes this test, inline; addRare reads the
// lines it lets through (stuck.go).
func mayEndTakenDown(t []byte) bool {
	n := len(t)
	return n > len(takenDownTail) && t[n-1] == '.' && (t[n-2] == 'n' && t[n-3] == 'w' || t[n-2] == 'a' && t[n-3] == 't')
}

// takenDown names the watchdog item of such a line.
const takenDown = "taken-down"

// addTakenDown keeps l where it is either sentence's line; it reports whether it was.
func (p *Part) addTakenDown(l *stages.Line) bool {
	i := bytes.Index(l.Text, takenDownHead)
	if i < 0 {
		if i = bytes.Index(l.Text, takenDownTail); i < 0 {
			return false
		}
	}
	it := newItem(evWatchdog, l.N, l.P)
	if r := headRankBefore(l.Text, i); it.Rank < 0 && r >= 0 {
		it.Rank, it.RankLast = r, r
	}
	it.Name = takenDown
	it.Text = "NCCL operations failed or timed out; PyTorch takes the process down"
	p.keep(it)
	return true
}

// onlyTakenDown reports whether c's watchdog lines are all takenDown's: no timeout of a
// named collective.
func onlyTakenDown(c *cand) bool {
	return !slices.ContainsFunc(c.items, func(it *Item) bool { return it.Ev == evWatchdog && it.Name != takenDown })
}

// sameTakenDown reports whether c already holds a takenDown item of it's process and rank:
// the second sentence of a rank whose first was read.
func sameTakenDown(c *cand, it *Item) bool {
	return it.Name == takenDown && slices.ContainsFunc(c.items, func(o *Item) bool {
		return o.Name == takenDown && o.Rank == it.Rank && o.Host == it.Host && o.Pid == it.Pid
	})
}

package diagnose

import (
	"fmt"

	"github.com/nccllog/nccllog/parser"
)

// PyTorch's flight recorder tells every rank, through the c10d store, which rank's watchdog
// timed out first, and each rank that receives it says so:
//
//	[rank0]:[E804 23:05:54.817424543 ProcessGroupNCCL.cpp:1914] [PG ID 0 PG GUID 0(default_pg) Rank 0] Received a dump signal due to a collective timeout from  rank 13 and we will try our best to dump the debug info. Last enqueued NCCL work: 1261, last completed NCCL work: 1259. ...
//
// The line is rank 0's, but its word is on rank 13: a collective of rank 13 timed out. An
// excerpt of rank 0's output (rank 13's own timeout line elsewhere) shows it only so: a
// watchdog item of rank 13, of no process (the receiving rank's host and pid are not the
// timed-out rank's) and no work (the queue printed is the receiver's). A signal observed with
// no rank named (`Observed flight recorder dump signal from another rank`) names no one and
// stays unread.

// dumpReceived names the watchdog item of such a line.
const dumpReceived = "dump-received"

// dumpItem is the item of a received dump signal that names its rank; false where w is none.
func dumpItem(n int64, l *parser.Line, w *parser.Watchdog) (Item, bool) {
	if w.Event != parser.WatchdogDumpReceived || w.FromRank < 0 {
		return Item{}, false
	}
	it := newItem(evWatchdog, n, l)
	it.Host, it.Pid, it.Tid, it.GPU = "", -1, 0, -1
	it.Rank, it.RankLast = w.FromRank, w.FromRank
	it.Name = dumpReceived
	it.Text = fmt.Sprintf("rank %d: a collective timed out, as the dump signal rank %d received says", w.FromRank, w.Rank)
	return it, true
}

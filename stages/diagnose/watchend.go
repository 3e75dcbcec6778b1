package diagnose

import (
	"slices"
	"strings"
)

// PyTorch's watchdog ends the process it found a timeout in: it says so ("To avoid data
// inconsistency, we are taking the entire process down.") and throws, and the C++ runtime
// prints `terminate called after throwing an instance of 'std::runtime_error'`, then the
// signal (`Aborted (core dumped)`). Where the what() under the terminate carries the timeout,
// the terminate is read as the timeout (stuck.go); an excerpt that ends before it holds the
// terminate alone, which, read as a crash, outranked the timeout printed before it and put
// the timeout after it:
//
//	[E ProcessGroupNCCL.cpp:828] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=60000) ran for 69662 milliseconds before timing out.
//	[E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process down.
//	terminate called after throwing an instance of 'std::runtime_error'
//
// watchEnded folds such an ending into the watchdog's finding: a crash made only of
// exceptions, terminates and signals (appException), every line of it after the watchdog's
// first, of processes the watchdog's lines name (or of none, beside a watchdog of one).

// watchEnded returns out without the crashes that are how the watchdog ended its process,
// which join b.watch.
func (b *builder) watchEnded(out []*cand) []*cand {
	w := b.watch
	if w == nil {
		return out
	}
	return slices.DeleteFunc(out, func(c *cand) bool {
		if !appException(c) || c.order <= w.order || !procsWithin(c.procs, w.procs) && !b.afterTakenDown(c) {
			return false
		}
		w.absorb(c)
		w.kind = KindWatchdogTimeout // the watchdog's word on what ended it
		return true
	})
}

// procsWithin reports whether every process of ps is one of of; a crash of no process named
// is the watchdog's where the watchdog's lines name one process at most (the lines of one
// process's output, unlabelled).
func procsWithin(ps, of []*proc) bool {
	if len(ps) == 0 {
		return len(of) <= 1
	}
	for _, p := range ps {
		if !slices.Contains(of, p) {
			return false
		}
	}
	return true
}

// afterTakenDown reports whether c, a crash of no process named, comes right after the
// watchdog's word that it takes its process down (takendown.go): the terminate that word
// announces, whichever of the watchdog's ranks printed both. An abort signal right after the
// terminate's what() that carries the timeout is that ending too (`terminate called ...`,
// `what():  [Rank 1] Watchdog caught collective operation timeout: ...`, `Fatal Python
// error: Aborted`).
func (b *builder) afterTakenDown(c *cand) bool {
	i := c.order - 1
	if len(c.procs) > 0 || i < 0 || i >= len(b.e.Items) {
		return false
	}
	prev := &b.e.Items[i]
	return prev.Ev == evWatchdog && (prev.Name == takenDown || abortSignal(c))
}

// abortSignal reports whether c is a signal line alone, SIGABRT's (`Aborted`, `Fatal Python
// error: Aborted`, `Aborted (core dumped)`).
func abortSignal(c *cand) bool {
	return len(c.items) == 1 && c.items[0].Ev == evSignal && strings.HasPrefix(c.items[0].Name, "Aborted")
}

// watchAborted reports whether the launcher's first process lp ended by SIGABRT (exit code -6,
// or 134 from a shell) with nothing of its own in the log, where the log holds watchdog
// timeouts: PyTorch's watchdog aborts the process whose collective it timed out, so the exit
// follows the timeouts, not the reverse (torchrun's `failed (exitcode: -6) local_rank: 1`
// after `NCCL communicator was aborted on rank 0. Original reason for failure was: [Rank 0]
// Watchdog caught collective operation timeout`).
func (b *builder) watchAborted(lp *proc, litems []*Item) bool {
	if lp == nil || b.watch == nil || b.own[lp] != nil {
		return false
	}
	return slices.ContainsFunc(litems, func(it *Item) bool { return it.Code == -6 || it.Code == 134 })
}

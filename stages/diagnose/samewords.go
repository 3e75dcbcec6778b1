package diagnose

import "slices"

// Where every rank runs into the same bug, each prints the same traceback and exception, and
// where the processes share one output stream without labels, no line says whose each is:
//
//	RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Half   (four times)
//	... torch.distributed.elastic ... [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 87930)
//
// The launcher names the process that ended first. Where it printed no last words of its own
// and the exceptions no line ties to a process all say the same, that exception is its last
// words too: every process that printed one printed it.

// claimSame gives the launcher's first process lp the one exception the processes printed
// without a label (two or more, all alike, nothing else loose and no process's own error).
func (b *builder) claimSame(lp *proc) {
	if b.own[lp] != nil || len(b.owners) > 0 || len(b.loose) < 2 {
		return
	}
	key := ""
	for _, c := range b.loose {
		k, ok := unlabelledException(c)
		if !ok || (key != "" && k != key) {
			return
		}
		key = k
	}
	c := newCand(b.loose[0].kind, true)
	for _, o := range b.loose {
		c.absorb(o)
	}
	c.procs = []*proc{lp}
	c.sameAs = len(b.loose)
	b.loose = nil
	b.own[lp] = c
	b.owners = append(b.owners, lp)
}

// unlabelledException is the exception c is, where c is a process's own exception that no
// line ties to a process.
func unlabelledException(c *cand) (string, bool) {
	if len(c.procs) > 0 || c.shared || !slices.Contains([]Kind{KindCrash, KindOOM, KindCudaError}, c.kind) {
		return "", false
	}
	for _, it := range c.items {
		if it.Ev == evException {
			return it.Name + "\x00" + it.Text, true
		}
	}
	return "", false
}

// claimResult makes the finding of the launcher's first process lp from the NCCL exception
// the log printed before the launcher's line without naming a process, where nothing else
// names lp's last words:
//
//	RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:47, unhandled cuda error, NCCL version 21.0.3
//	ncclUnhandledCudaError: Call to CUDA function failed.
//	ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 227) ...
//
// The exceptions (one or more) must all carry one result a process meets on its own (not
// ncclRemoteError, which another's failure makes), which gives the kind. Nil where there is
// no such exception, or where another process's error could be the words.
func (b *builder) claimResult(lp *proc, litems []*Item) *cand {
	rem := b.conseq[KindRemoteError]
	if rem == nil || len(b.owners) > 0 || len(b.loose) > 0 || len(litems) == 0 {
		return nil
	}
	pos := b.positions(slices.Concat(litems, rem.items))
	end := -1
	for _, it := range litems {
		if end < 0 || pos[it] < end {
			end = pos[it]
		}
	}
	var took []*Item
	code := int64(0)
	for _, it := range rem.items {
		if !ncclException(it) || pos[it] > end {
			continue // a follow-on WARN, or a line after the exit: the others' ending
		}
		if b.x.of(it) != nil || it.Rank >= 0 || it.Under != 0 || (code != 0 && it.Code != code) {
			return nil // a process's own, or two results: not one process's last words
		}
		code = it.Code
		took = append(took, it)
	}
	if k := excResultKind(code); len(took) == 0 || !lastWordsKind[k] {
		return nil
	}
	c := newCand(excResultKind(code), true)
	for _, it := range took {
		c.add(it, pos[it], lp)
	}
	rem.items = slices.DeleteFunc(rem.items, func(it *Item) bool { return slices.Contains(took, it) })
	if len(rem.items) == 0 {
		delete(b.conseq, KindRemoteError)
	}
	b.own[lp] = c
	b.owners = append(b.owners, lp)
	return c
}

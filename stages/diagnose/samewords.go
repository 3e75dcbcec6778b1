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

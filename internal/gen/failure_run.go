package gen

import "bytes"

// A failure scenario runs the job normally up to the middle (half of Steps,
// or once half of Size is written), then stalls it: the failing rank never
// enqueues the second world call of that step (PyTorch SeqNum fail.seq) and
// the others enqueue it and wait in it, as ranks do when a peer is gone. The
// end of the run (writeFailureEnd) then prints what each process prints
// after that. Up to the stall, every line is the one the same Config without
// Failure prints.

// culpritStopsEarly reports whether the failing ranks of the scenario never
// enqueue the stalled work (they exited, ran out of memory or hung before
// it); in ib-error the failing rank is in the work when its NIC fails.
func (f *failure) culpritStopsEarly() bool {
	switch f.scenario {
	case "ib-error", "shared-timeout", "init-fail":
		return false
	}
	return f.scenario != ""
}

// failPending reports whether the run must go on until the stall has
// stopped every rank.
func (g *gen) failPending() bool {
	s := g.fail.scenario
	return s != "" && s != "init-fail" && g.live > 0
}

// failNow reports whether the stall starts in this step.
func (g *gen) failNow(step int) bool {
	f := &g.fail
	if f.scenario == "" || f.scenario == "init-fail" || f.seq > 0 {
		return false
	}
	if g.cfg.Steps > 0 {
		return step >= g.cfg.Steps/2
	}
	return g.sum.Bytes >= g.cfg.Size/2
}

// startFailure arms the stall at the second world call from now.
func (g *gen) startFailure() {
	calls := 0
	for i := range g.topo.procs {
		calls = max(calls, g.topo.procs[i].worldCalls)
	}
	g.fail.seq = calls + 2
	g.faults.watchdogSeq = g.fail.seq // watchdogLines prints it
}

// stallAfterWorldCall stops p once it has issued world call seq-1 (a culprit
// that stops early) or seq (everyone else, who then waits in it).
func (g *gen) stallAfterWorldCall(p *proc, op *planOp) {
	f := &g.fail
	culprit := p.rank == f.rank || p.rank == f.second
	switch {
	case p.silent:
	case culprit && f.culpritStopsEarly() && p.worldCalls == f.seq-1:
		g.halt(p)
	case p.worldCalls == f.seq:
		p.waitOp, p.waitCount = op.kind, op.count
		g.halt(p)
		p.waiting = true
	}
	if g.fail.atMs == 0 && p.silent {
		g.fail.atMs = g.clockMs
	}
}

// writeFailPhase writes the lines build gives each process, interleaved over
// durMs; a nil line is a blank line. Processes print here although the stall
// silenced them.
func (g *gen) writeFailPhase(durMs int64, build func(p *proc) lines) {
	procs := g.topo.procs
	all := make([]lines, len(procs))
	n := make([]int, len(procs))
	for r := range procs {
		all[r] = build(&procs[r])
		n[r] = len(all[r])
	}
	g.interleave(n, durMs, func(r, i int) {
		p := &procs[r]
		p.silent = false
		if all[r][i] == nil {
			g.blank(p)
		} else {
			for line := range bytes.SplitSeq(all[r][i], []byte{'\n'}) {
				g.end(p, append(g.begin(p), line...))
			}
		}
		p.silent = true
	})
}

// raw writes a line that no rank prints (a launcher's), with the collector
// timestamp if any, to the interleaved output only.
func (g *gen) raw(s string) {
	b := g.bw.AvailableBuffer()
	b = append(b, g.ts...)
	b = append(b, s...)
	b = append(b, '\n')
	if _, err := g.bw.Write(b); err != nil && g.err == nil {
		g.err = err
	}
	g.sum.Bytes += int64(len(b))
	g.sum.Lines++
}

// writeFailureEnd writes what the processes and the launcher print after the
// stall, by scenario.
func (g *gen) writeFailureEnd() {
	if g.fail.atMs == 0 {
		g.fail.atMs = g.clockMs
	}
	switch g.fail.scenario {
	case "exit-slurm", "exit-torchrun", "exit-mpirun":
		g.writeExit()
	case "oom":
		g.writeOOM()
	case "ib-error":
		g.writeIBError()
	case "shared-timeout":
		g.writeSharedTimeout()
	case "ras":
		g.writeRAS()
	}
}

package gen

import "bytes"

// writeSharedTimeout writes the shared-timeout scenario: every rank waits in
// the same work (no rank is missing from it: the network or the job as a
// whole is stuck) and every rank's watchdog times out on it, aborts its
// communicators and takes the process down. With GlueWatchdog (and one
// interleaved output), half of the watchdog timeout lines start in the
// middle of another process's NCCL line, as on a shared stdout.
func (g *gen) writeSharedTimeout() {
	g.setClock(g.fail.atMs + watchdogTimeoutMs)
	build := func(p *proc) lines {
		var l lines
		g.addTimeoutExit(&l, p)
		return append(l, g.closeLines(p, "Abort")...)
	}
	if !g.cfg.GlueWatchdog || g.topo.procs[0].w != g.bw {
		g.writeFailPhase(teardownMs, build)
		return
	}
	g.writeGluedPhase(teardownMs, build)
}

// gluer writes a phase's lines to the interleaved output, holding back one
// NCCL INFO line so that the next watchdog timeout line of another process
// can be written into its middle; the held line's rest follows on a line of
// its own.
type gluer struct {
	g     *gen
	held  []byte // a whole line, newline included
	owner int    // rank of the held line
	left  int    // how many more lines to glue
}

func (gl *gluer) write(b []byte) {
	g := gl.g
	if _, err := g.bw.Write(b); err != nil && g.err == nil {
		g.err = err
	}
	g.sum.Bytes += int64(len(b))
	g.sum.Lines += int64(bytes.Count(b, []byte{'\n'}))
}

func (gl *gluer) flush() {
	if gl.held != nil {
		gl.write(gl.held)
		gl.held = nil
	}
}

// line writes line (a whole line of rank r, newline included); timeout says
// whether it is a watchdog timeout line.
func (gl *gluer) line(r int, line []byte, timeout bool) {
	switch {
	case gl.held != nil && timeout && gl.owner != r && gl.left > 0:
		cut := bytes.Index(gl.held, []byte(" NCCL INFO ")) + len(" NCCL INFO ")
		cut += (len(gl.held) - cut) / 2
		glued := append(append([]byte(nil), gl.held[:cut]...), line...)
		gl.write(append(glued, gl.held[cut:]...))
		gl.held = nil
		gl.left--
		return
	case gl.held != nil && gl.owner == r:
		gl.flush()
	}
	if bytes.Contains(line, []byte(" NCCL INFO ")) {
		gl.flush()
		gl.held, gl.owner = line, r
		return
	}
	gl.write(line)
}

// writeGluedPhase is writeFailPhase for one interleaved output, gluing up
// to half of the watchdog timeout lines (the first line of each rank's).
func (g *gen) writeGluedPhase(durMs int64, build func(p *proc) lines) {
	procs := g.topo.procs
	all := make([]lines, len(procs))
	n := make([]int, len(procs))
	for r := range procs {
		all[r] = build(&procs[r])
		n[r] = len(all[r])
	}
	gl := &gluer{g: g, left: len(procs) / 2}
	g.interleave(n, durMs, func(r, i int) {
		p := &procs[r]
		b := append(append(append([]byte(nil), g.ts...), p.prefix...), all[r][i]...)
		gl.line(r, append(b, '\n'), i == 0)
	})
	gl.flush()
}

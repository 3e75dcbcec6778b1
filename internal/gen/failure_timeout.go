package gen

import (
	"bytes"
	"slices"
)

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

// gluer writes a phase's lines to the interleaved output, holding back
// NCCL INFO lines (at most one per process, as a block-buffered stdout holds
// a process's unflushed text) so that a later watchdog timeout line of
// another process can be written into the middle of one; the held line's
// rest follows on a line of its own.
type gluer struct {
	g      *gen
	held   [][]byte // whole lines, newline included, oldest first
	owners []int    // the rank of each held line
	left   int      // how many more lines to glue
}

func (gl *gluer) write(b []byte) {
	g := gl.g
	if _, err := g.bw.Write(b); err != nil && g.err == nil {
		g.err = err
	}
	g.sum.Bytes += int64(len(b))
	g.sum.Lines += int64(bytes.Count(b, []byte{'\n'}))
}

// take removes and returns the k-th held line.
func (gl *gluer) take(k int) []byte {
	b := gl.held[k]
	gl.held = slices.Delete(gl.held, k, k+1)
	gl.owners = slices.Delete(gl.owners, k, k+1)
	return b
}

// line writes line (a whole line of rank r, newline included); timeout says
// whether it is a watchdog timeout line.
func (gl *gluer) line(r int, line []byte, timeout bool) {
	if k := slices.Index(gl.owners, r); k >= 0 {
		gl.write(gl.take(k)) // r's earlier line goes out first
	}
	switch {
	case timeout && gl.left > 0 && len(gl.held) > 0:
		held := gl.take(0)
		cut := bytes.Index(held, []byte(" NCCL INFO ")) + len(" NCCL INFO ")
		cut += (len(held) - cut) / 2
		glued := append(append([]byte(nil), held[:cut]...), line...)
		gl.write(append(glued, held[cut:]...))
		gl.left--
	case len(gl.held) < gl.left && bytes.Contains(line, []byte(" NCCL INFO ")):
		gl.held = append(gl.held, line)
		gl.owners = append(gl.owners, r)
	default:
		gl.write(line)
	}
}

// writeGluedPhase is writeFailPhase for one interleaved output, gluing half
// of the watchdog timeout lines (the first line of each rank's): the first
// half of the ranks time out and abort first, the second half's timeout
// lines land in the NCCL lines the first half's stdout still holds.
func (g *gen) writeGluedPhase(durMs int64, build func(p *proc) lines) {
	procs := g.topo.procs
	all := make([]lines, len(procs))
	for r := range procs {
		all[r] = build(&procs[r])
	}
	half := len(procs) / 2
	gl := &gluer{g: g, left: len(procs) - half}
	for _, wave := range [2][2]int{{0, half}, {half, len(procs)}} {
		n := make([]int, len(procs))
		for r := wave[0]; r < wave[1]; r++ {
			n[r] = len(all[r])
		}
		g.interleave(n, durMs/2, func(r, i int) {
			p := &procs[r]
			b := append(append(append([]byte(nil), g.ts...), p.prefix...), all[r][i]...)
			gl.line(r, append(b, '\n'), i == 0)
		})
	}
	for _, b := range gl.held {
		gl.write(b)
	}
}

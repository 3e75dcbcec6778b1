package gen

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"
	"time"
)

// startTime is the wall clock of the first line, in Unix milliseconds
// (2026-03-01 12:00:00 UTC). Output never depends on the real clock.
const startTime = 1772366400000

// pcgStream is the fixed second PCG word; Seed is the first.
const pcgStream = 0x6e63636c6c6f6721

// gen holds the state of one Write or WriteFiles call.
type gen struct {
	cfg      Config
	v        version
	rng      *rand.Rand
	bw       *bufio.Writer // the interleaved output (io.Discard for WriteFiles)
	topo     *topology
	faults   faults
	fail     failure
	live     int // processes that are not silent
	sum      Summary
	err      error
	clockMs  int64    // simulated wall clock, Unix milliseconds
	tsSec    int64    // second that ts was formatted for
	ts       []byte   // "[YYYY-MM-DD hh:mm:ss] " when Prefix is "timestamp"
	stamps   *stamper // the time of every line where Timestamps asks for one, else nil
	arrive   *arrival // the in-step arrival model (ArrivalJitter, a straggler), else nil
	clockNs  int64    // the simulated clock to the nanosecond, where stamps is set
	maxSteps int      // total steps shown in progress lines
	model    model
	st       stepScratch
}

// Write writes the log that cfg describes to w and reports what it wrote.
// The same Config always gives byte-identical output.
func Write(w io.Writer, cfg Config) (Summary, error) {
	c, v, err := cfg.normalize()
	if err != nil {
		return Summary{}, err
	}
	g := newGen(w, c, v)
	g.run()
	if err := g.bw.Flush(); err != nil && g.err == nil {
		g.err = err
	}
	if g.fail.scenario != "" {
		t := g.truth()
		g.sum.Truth = &t
	}
	if len(g.cfg.Stragglers) > 0 {
		if g.sum.Truth == nil {
			g.sum.Truth = &Truth{Rank: -1}
		}
		g.sum.Truth.Stragglers = g.stragglerTruth()
	}
	return g.sum, g.err
}

// run writes the whole log: init, the steps, and the end of the run.
func (g *gen) run() {
	c := g.cfg
	if g.fail.scenario == "init-fail" {
		g.writeInitFailure()
		return
	}
	g.writeInit()
	initBytes := g.sum.Bytes
	g.stopBeforeSteps()
	for step := 0; c.Steps == 0 || step < c.Steps || g.failPending(); step++ {
		if g.failNow(step) {
			g.startFailure()
		}
		g.writeStep(step, initBytes)
		if g.err != nil || (c.Size > 0 && g.sum.Bytes >= c.Size && !g.failPending()) || g.live == 0 {
			break
		}
	}
	if g.err == nil {
		g.writeEnd()
	}
}

func newGen(w io.Writer, c Config, v version) *gen {
	g := &gen{cfg: c, v: v, bw: bufio.NewWriterSize(w, 64<<10), tsSec: -1}
	g.rng = rand.New(rand.NewPCG(uint64(c.Seed), pcgStream))
	g.topo = newTopology(c, g.rng)
	g.faults = newFaults(c)
	g.fail = newFailure(c)
	for i := range g.topo.procs {
		p := &g.topo.procs[i]
		p.prefix = launcherPrefix(c.Prefix, p.rank)
		p.w = g.bw
		p.silent = p.rank == g.faults.missing
		if !p.silent {
			g.live++
		}
	}
	g.maxSteps = c.Steps
	g.stamps = newStamper(c)
	g.arrive = newArrival(c, len(g.topo.procs))
	g.model = newModel(g.rng)
	g.setClock(startTime)
	return g
}

// launcherPrefix is what a launcher puts before every line of a rank.
func launcherPrefix(kind string, rank int) []byte {
	r := strconv.Itoa(rank)
	switch kind {
	case "srun":
		return []byte(r + ": ")
	case "mpirun":
		return []byte("[1," + r + "]<stdout>:")
	case "torchrun":
		return []byte("[rank" + r + "]:")
	}
	return nil
}

// setClock moves the simulated clock and refreshes the timestamp prefix.
func (g *gen) setClock(ms int64) {
	g.clockMs, g.clockNs = ms, ms*1e6
	if g.cfg.Prefix != "timestamp" || ms/1000 == g.tsSec {
		return
	}
	g.tsSec = ms / 1000
	g.ts = append(g.ts[:0], '[')
	g.ts = time.UnixMilli(ms).UTC().AppendFormat(g.ts, "2006-01-02 15:04:05")
	g.ts = append(g.ts, "] "...)
}

// begin starts a line of process p in its write buffer, prefix included.
func (g *gen) begin(p *proc) []byte {
	b := p.w.AvailableBuffer()
	b = append(b, g.ts...)
	return append(b, p.prefix...)
}

// end finishes a line of p started with begin and writes it, unless p is
// silent. It reports whether it wrote the line.
func (g *gen) end(p *proc, b []byte) bool {
	if p.silent {
		return false
	}
	if g.stamps != nil && len(b) > 0 {
		b = g.stamps.line(p, b[len(p.prefix):], g.wallTime(p))
	}
	b = append(b, '\n')
	if _, err := p.w.Write(b); err != nil && g.err == nil {
		g.err = err
	}
	g.sum.Bytes += int64(len(b))
	g.sum.Lines++
	return true
}

// blank writes an empty line of p, with no prefix.
func (g *gen) blank(p *proc) {
	g.end(p, p.w.AvailableBuffer())
}

// interleave calls emit(rank, i) for i = 0..n[rank]-1 of every rank, each
// rank's own order kept and the ranks mixed at random. It moves the clock
// evenly from the current time over durMs.
func (g *gen) interleave(n []int, durMs int64, emit func(rank, i int)) {
	active, pos := g.st.active[:0], g.st.pos[:0]
	total := 0
	for r, k := range n {
		pos = append(pos, 0)
		total += k
		if k > 0 {
			active = append(active, r)
		}
	}
	start := g.clockMs
	for done := 0; len(active) > 0; done++ {
		if g.ts != nil {
			g.setClock(start + durMs*int64(done)/int64(total))
		}
		if g.stamps != nil {
			// To the nanosecond: a rank's lines within one millisecond keep their order.
			g.clockNs = start*1e6 + durMs*1e6*int64(done)/int64(total)
			g.clockMs = g.clockNs / 1e6
		}
		k := g.rng.IntN(len(active))
		r := active[k]
		emit(r, pos[r])
		pos[r]++
		if pos[r] == n[r] {
			active[k] = active[len(active)-1]
			active = active[:len(active)-1]
		}
	}
	g.st.active, g.st.pos = active, pos
	g.setClock(start + durMs)
}

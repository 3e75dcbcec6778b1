package gen

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// teardownMs is how long the end-of-run Destroy/Abort lines take on the clock.
const teardownMs = 800

// faults holds Config's faults, with -1 for a rank that is off.
type faults struct {
	stop, stopAfter        int
	mismatch, mismatchCall int
	dtypeMismatch          bool
	abort, missing         int
	watchdog, watchdogSeq  int
	mid                    []byte // scratch for the mismatched " count … root "
}

func rankOrOff(r *int) int {
	if r == nil {
		return -1
	}
	return *r
}

func newFaults(c Config) faults {
	return faults{
		stop:          rankOrOff(c.StopRank),
		stopAfter:     c.StopAfter,
		mismatch:      rankOrOff(c.MismatchRank),
		mismatchCall:  c.MismatchCall,
		dtypeMismatch: c.MismatchKind == "dtype",
		abort:         rankOrOff(c.AbortRank),
		missing:       rankOrOff(c.MissingRank),
		watchdog:      rankOrOff(c.WatchdogRank),
		watchdogSeq:   c.WatchdogSeq,
	}
}

// appendMismatch appends op's " count N datatype D op O root " with the
// mismatch applied: count+1, or bf16 (fp32 where op is bf16).
func (f *faults) appendMismatch(b []byte, op *planOp) []byte {
	alt := *op
	switch {
	case !f.dtypeMismatch:
		alt.count++
	case op.dtype == dtBf16:
		alt.dtype = dtFloat32
	default:
		alt.dtype = dtBf16
	}
	f.mid = appendMid(f.mid[:0], &alt)
	return append(b, f.mid...)
}

// halt makes p print nothing more; the abort rank first prints its Abort lines.
func (g *gen) halt(p *proc) {
	if p.silent {
		return
	}
	if p.rank == g.faults.abort {
		for _, l := range g.closeLines(p, "Abort") {
			g.end(p, append(g.begin(p), l...))
		}
	}
	p.silent = true
	g.live--
}

// stopBeforeSteps halts the stop rank after its init lines when StopAfter is 0,
// and the watchdog rank when the work it never enqueues is the first.
func (g *gen) stopBeforeSteps() {
	if g.faults.stop >= 0 && g.faults.stopAfter == 0 {
		g.halt(&g.topo.procs[g.faults.stop])
	}
	if g.faults.watchdog >= 0 && g.faults.watchdogSeq == 1 {
		g.halt(&g.topo.procs[g.faults.watchdog])
	}
}

// afterWorldCall applies the faults that act once p has issued another world
// call, op: the stop rank and the watchdog rank stop; with a watchdog rank,
// the others stop in the work it never enqueued and wait there.
func (g *gen) afterWorldCall(p *proc, op *planOp) {
	f := &g.faults
	switch {
	case p.rank == f.stop && p.worldCalls == f.stopAfter:
		g.halt(p)
	case g.fail.seq > 0:
		g.stallAfterWorldCall(p, op)
	case f.watchdog < 0:
	case p.rank == f.watchdog && p.worldCalls == f.watchdogSeq-1:
		g.halt(p)
	case p.rank != f.watchdog && p.worldCalls == f.watchdogSeq && !p.silent:
		p.waitOp = op.kind
		p.waitCount = op.count
		g.halt(p)
		p.waiting = true
	}
}

// writeEnd writes the end of the run: the abort rank's Abort lines (if it is
// still running) and, with Teardown, the Destroy lines of the other running
// ranks, interleaved. Without Teardown or AbortRank it writes nothing and
// draws no random numbers.
func (g *gen) writeEnd() {
	if g.fail.scenario != "" {
		g.writeFailureEnd()
		return
	}
	g.writeWatchdog()
	if !g.cfg.Teardown && !g.cfg.CleanAbort && g.faults.abort < 0 {
		return
	}
	g.writePhase(teardownMs, func(p *proc) lines {
		switch {
		case p.silent:
			return nil
		case p.rank == g.faults.abort || g.cfg.CleanAbort:
			return g.closeLines(p, "Abort")
		case g.cfg.Teardown:
			return g.closeLines(p, "Destroy")
		}
		return nil
	})
	if a := g.faults.abort; a >= 0 && !g.topo.procs[a].silent {
		g.topo.procs[a].silent = true
		g.live--
	}
}

// writeWatchdog writes, for every rank waiting in the work the watchdog rank
// never enqueued, PyTorch's watchdog lines once the timeout has passed.
func (g *gen) writeWatchdog() {
	if g.faults.watchdog < 0 {
		return
	}
	g.setClock(g.clockMs + watchdogTimeoutMs)
	for i := range g.topo.procs {
		if p := &g.topo.procs[i]; p.waiting {
			p.silent = false
		}
	}
	g.writePhase(teardownMs, func(p *proc) lines {
		if !p.waiting {
			return nil
		}
		return g.watchdogLines(p)
	})
	for i := range g.topo.procs {
		if p := &g.topo.procs[i]; p.waiting {
			p.silent = true
		}
	}
}

// closeLines renders, for each communicator of p (world, then split),
// "comm %p rank %d nranks %d cudaDev %d busId %lx - Destroy COMPLETE" or
// "… - Abort COMPLETE" (2.12+), on the main thread. 2.28+ print
// "comm %p rank %d nRanks %d cudaDev %d busId %lx - Abort START" first.
func (g *gen) closeLines(p *proc, what string) lines {
	var l lines
	for i := range p.comms {
		rc := &p.comms[i]
		if what == "Abort" && g.v.atLeast(28) {
			b := appendCloseFields(append([]byte(nil), p.head...), p, rc, " nRanks ")
			l.add(append(b, " - Abort START"...))
		}
		b := appendCloseFields(append([]byte(nil), p.head...), p, rc, " nranks ")
		l.add(append(b, " - "+what+" COMPLETE"...))
	}
	return l
}

// appendCloseFields appends "comm %p rank %d <nranks> %d cudaDev %d busId %lx".
func appendCloseFields(b []byte, p *proc, rc *rankComm, nranks string) []byte {
	b = append(b, "comm 0x"...)
	b = strconv.AppendUint(b, rc.ptr, 16)
	b = appendKV(b, " rank ", rc.rank)
	b = appendKV(b, nranks, len(rc.info.members))
	b = appendKV(b, " cudaDev ", p.dev)
	b = append(b, " busId "...)
	return strconv.AppendUint(b, p.busID, 16)
}

// FileName is the name NCCL_DEBUG_FILE=nccl.%h.%p.log gives the log of the
// process with this host name and pid, e.g. "nccl.gpu-node-00.52445.log".
func FileName(host string, pid int) string {
	return "nccl." + host + "." + strconv.Itoa(pid) + ".log"
}

// WriteFiles writes the log that cfg describes as NCCL_DEBUG_FILE=nccl.%h.%p.log
// would: one file per process in dir (created if needed), named by FileName,
// each holding only that process's lines in its own order, without launcher
// prefixes. The lines are exactly those Write prints for the same Config,
// blank lines and application output included. Rank 0's progress lines and,
// before 2.22, the bare "NCCL version" line (which real NCCL sends to stdout)
// go to rank 0's file, as if the process's stdout went to the same place.
// cfg.Prefix must be empty. The MissingRank gets no file. It returns the paths
// of the files, in rank order.
func WriteFiles(dir string, cfg Config) ([]string, error) {
	return writeSplit(dir, cfg, func(p *proc) string { return FileName(hostName(p.host), p.pid) })
}

// NodeFileName is the name WriteNodes gives the log of the node with this host
// name, e.g. "nccl.gpu-node-00.log".
func NodeFileName(host string) string { return "nccl." + host + ".log" }

// WriteNodes writes the log that cfg describes as one file per node in dir
// (created if needed), named by NodeFileName: the lines of the node's
// processes, interleaved as Write interleaves them, as a node's own job log
// (or a collector's per-node stream) holds them. cfg.Prefix must be empty. A
// node whose ranks are all MissingRank gets no file. It returns the paths of
// the files, in node order.
func WriteNodes(dir string, cfg Config) ([]string, error) {
	return writeSplit(dir, cfg, func(p *proc) string { return NodeFileName(hostName(p.host)) })
}

// writeSplit writes the lines of each process to the file in dir that name
// gives it; processes that share a name share the file.
func writeSplit(dir string, cfg Config, name func(p *proc) string) ([]string, error) {
	c, v, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	if c.Prefix != "" {
		return nil, fmt.Errorf("prefix %q: per-process files have no launcher prefix; leave Prefix empty", c.Prefix)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	g := newGen(io.Discard, c, v)
	bufSize := min(64<<10, max(4<<10, (32<<20)/len(g.topo.procs)))
	var paths []string
	writers := map[string]*bufio.Writer{}
	for i := range g.topo.procs {
		p := &g.topo.procs[i]
		if p.silent {
			continue
		}
		path := filepath.Join(dir, name(p))
		if writers[path] == nil {
			if err := createEmpty(path); err != nil {
				return nil, err
			}
			paths = append(paths, path)
			writers[path] = bufio.NewWriterSize(appendFile(path), bufSize)
		}
		p.w = writers[path]
	}
	g.run()
	for _, path := range paths {
		if err := writers[path].Flush(); err != nil && g.err == nil {
			g.err = err
		}
	}
	if g.err != nil {
		return nil, g.err
	}
	return paths, nil
}

func createEmpty(path string) error {
	f, err := os.Create(path)
	if err == nil {
		err = f.Close()
	}
	return err
}

// appendFile writes to the end of a file, opening it for each write, so that
// thousands of ranks need no more than one open file at a time.
type appendFile string

func (a appendFile) Write(b []byte) (int, error) {
	f, err := os.OpenFile(string(a), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return 0, err
	}
	n, err := f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

package gen

import (
	"strconv"
)

// Durations of the two init phases on the simulated clock.
const (
	worldInitMs = 4200
	splitInitMs = 1300
)

// lines collects rendered lines of one rank (no prefix, no newline).
type lines [][]byte

func (l *lines) add(b []byte) { *l = append(*l, b) }

// writeInit writes the init blocks of the world communicator and then of the
// split communicators, ranks interleaved. Before 2.22 rank 0 prints a bare
// "NCCL version" line first.
func (g *gen) writeInit() {
	if !g.v.atLeast(22) {
		p := &g.topo.procs[0]
		g.end(p, append(g.begin(p), g.versionText()...))
	}
	g.writePhase(worldInitMs, g.worldInit)
	g.writePhase(splitInitMs, g.splitInit)
}

func (g *gen) writePhase(durMs int64, build func(p *proc) lines) {
	procs := g.topo.procs
	all := make([]lines, len(procs))
	n := make([]int, len(procs))
	for r := range procs {
		all[r] = build(&procs[r])
		n[r] = len(all[r])
	}
	g.interleave(n, durMs, func(r, i int) {
		p := &procs[r]
		g.end(p, append(g.begin(p), all[r][i]...))
	})
}

func hostIP(h int) string {
	return "10.0." + strconv.Itoa(h/200) + "." + strconv.Itoa(10+h%200)
}

func (g *gen) versionText() string {
	return "NCCL version " + g.v.text + "+cuda" + g.v.cuda()
}

// worldInit renders the init block of the world communicator for p.
func (g *gen) worldInit(p *proc) lines {
	var l lines
	boot := "Bootstrap : Using ib0:"
	if g.v.atLeast(24) {
		boot = "Bootstrap: Using ib0:"
	}
	ip := hostIP(p.host)
	l.add(append(p.appendHead(nil, p.pid), boot+ip+"<0>"...))
	if g.v.atLeast(22) {
		l.add(append(p.appendHead(nil, p.pid), g.versionText()...))
	}
	l.add(append(p.appendHead(nil, p.initTid), "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:"+ip+"<0>"...))
	l.add(append(p.appendHead(nil, p.initTid), "Using network IB"...))
	g.commBlock(&l, p, &p.comms[commWorld], p.initTid, "ncclCommInitRank")
	return l
}

// splitInit renders the init block of p's split communicator.
func (g *gen) splitInit(p *proc) lines {
	var l lines
	g.commBlock(&l, p, &p.comms[commSub], p.splTid, "ncclCommSplit")
	return l
}

// commBlock renders one communicator's Init START, setup, Init COMPLETE and timings lines.
func (g *gen) commBlock(l *lines, p *proc, rc *rankComm, tid int, api string) {
	l.add(g.initLine(p, rc, tid, false))
	g.commSetup(l, p, rc, tid)
	l.add(g.initLine(p, rc, tid, true))
	if t := g.timings(p, rc, api); t != nil {
		l.add(t)
	}
}

// initLine renders the Init START or Init COMPLETE line of rc.
func (g *gen) initLine(p *proc, rc *rankComm, tid int, complete bool) []byte {
	b := p.appendHead(nil, tid)
	split := rc.info.color >= 0
	switch {
	case split && g.v.atLeast(21):
		b = append(b, "ncclCommSplit "...)
	case !split && g.v.atLeast(29) && !complete:
		b = append(b, "[Rank "...)
		b = strconv.AppendInt(b, int64(rc.rank), 10)
		b = append(b, "] ncclCommInitRank "...)
	case !split && (complete && g.v.atLeast(21) || g.v.atLeast(23)):
		b = append(b, "ncclCommInitRank "...)
	}
	b = appendCommFields(b, p, rc)
	if split && g.v.atLeast(21) {
		b = g.appendSplitFields(b, p, rc)
	} else {
		b = appendCommID(b, rc.info.id)
	}
	switch {
	case complete:
		return append(b, " - Init COMPLETE"...)
	case split && g.v.atLeast(23):
		return append(b, "- Init START"...) // 2.23+ prints "key %d- Init START"
	}
	return append(b, " - Init START"...)
}

// appendCommFields appends "comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx".
func appendCommFields(b []byte, p *proc, rc *rankComm) []byte {
	b = append(b, "comm 0x"...)
	b = strconv.AppendUint(b, rc.ptr, 16)
	b = append(b, " rank "...)
	b = strconv.AppendInt(b, int64(rc.rank), 10)
	b = append(b, " nranks "...)
	b = strconv.AppendInt(b, int64(len(rc.info.members)), 10)
	b = append(b, " cudaDev "...)
	b = strconv.AppendInt(b, int64(p.dev), 10)
	b = append(b, " nvmlDev "...)
	b = strconv.AppendInt(b, int64(p.dev), 10)
	b = append(b, " busId "...)
	return strconv.AppendUint(b, p.busID, 16)
}

func appendCommID(b []byte, id uint64) []byte {
	b = append(b, " commId 0x"...)
	return strconv.AppendUint(b, id, 16)
}

// appendSplitFields appends "parent %p [splitCount|childCount 1] color %d key %d
// [commId 0x%llx]", by version: 2.21–2.22 print the commId, 2.23+ do not.
func (g *gen) appendSplitFields(b []byte, p *proc, rc *rankComm) []byte {
	b = append(b, " parent 0x"...)
	b = strconv.AppendUint(b, p.comms[commWorld].ptr, 16)
	switch {
	case g.v.atLeast(29):
		b = append(b, " childCount 1"...)
	case g.v.atLeast(24):
		b = append(b, " splitCount 1"...)
	}
	b = append(b, " color "...)
	b = strconv.AppendInt(b, int64(rc.info.color), 10)
	b = append(b, " key "...)
	b = strconv.AppendInt(b, int64(p.rank), 10)
	if !g.v.atLeast(23) {
		return appendCommID(b, rc.info.id)
	}
	return b
}

package gen

import (
	"strconv"
)

// ringChannels is how many channels the init blocks describe.
const ringChannels = 2

// commSetup renders the topology lines a rank prints between Init START and
// Init COMPLETE: node layout, ring dump (comm rank 0 only), trees,
// per-channel connections and the "Connected all" summaries.
func (g *gen) commSetup(l *lines, p *proc, rc *rankComm, tid int) {
	head := func() []byte { return p.appendHead(nil, tid) }
	n := len(rc.info.members)
	if g.v.atLeast(20) {
		nNodes, localRanks, localRank := g.topo.layout(rc.info, p.rank)
		b := append(head(), "comm 0x"...)
		b = strconv.AppendUint(b, rc.ptr, 16)
		b = append(b, " rank "...)
		b = strconv.AppendInt(b, int64(rc.rank), 10)
		b = appendKV(b, " nRanks ", n)
		b = appendKV(b, " nNodes ", nNodes)
		b = appendKV(b, " localRanks ", localRanks)
		b = appendKV(b, " localRank ", localRank)
		l.add(append(b, " MNNVL 0"...))
	}
	if rc.rank == 0 {
		for ch := 0; ch < ringChannels; ch++ {
			l.add(g.ringDump(head(), ch, n))
		}
	}
	l.add(g.treesLine(head(), rc))
	if n > 1 {
		for ch := 0; ch < ringChannels; ch++ {
			g.channelLines(l, head, p, rc, ch)
		}
	}
	rings := "Connected all rings"
	if g.v.atLeast(21) {
		rings += ", use ring PXN 0 GDR 1"
	}
	l.add(append(head(), rings...))
	l.add(append(head(), "Connected all trees"...))
}

func appendKV(b []byte, key string, v int) []byte {
	b = append(b, key...)
	return strconv.AppendInt(b, int64(v), 10)
}

// ringDump renders "Channel 00/02 :" and the ring order of one channel:
// " %3d" per rank, first 20 ranks (≤2.22), or " %*d" capped at 128 bytes (2.23+).
func (g *gen) ringDump(b []byte, ch, n int) []byte {
	start := len(b)
	b = append(b, "Channel "...)
	b = appendPad(b, ch, 2, '0')
	b = append(b, '/')
	b = appendPad(b, ringChannels, 2, '0')
	b = append(b, " :"...)
	width, limit := len(strconv.Itoa(n-1)), n
	if !g.v.atLeast(23) {
		b = append(b, ' ')
		width, limit = 3, min(n, 20)
	}
	for i := 0; i < limit; i++ {
		b = append(b, ' ')
		b = appendPad(b, (i+ch)%n, width, ' ')
	}
	if g.v.atLeast(23) && len(b)-start > 128 {
		b = append(b[:start+125], "..."...)
	}
	return b
}

// appendPad appends v right-aligned in width characters, padded with pad.
func appendPad(b []byte, v, width int, pad byte) []byte {
	s := strconv.Itoa(v)
	for i := len(s); i < width; i++ {
		b = append(b, pad)
	}
	return append(b, s...)
}

// treesLine renders "Trees [0] d0/d1/-1->rank->up [1] …" (2.8+ layout).
func (g *gen) treesLine(b []byte, rc *rankComm) []byte {
	d0, d1, up := g.topo.tree(rc.info, rc.rank)
	b = append(b, "Trees"...)
	for ch := 0; ch < ringChannels; ch++ {
		b = append(b, " ["...)
		b = strconv.AppendInt(b, int64(ch), 10)
		b = append(b, "] "...)
		b = strconv.AppendInt(b, int64(d0), 10)
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(d1), 10)
		b = append(b, "/-1->"...)
		b = strconv.AppendInt(b, int64(rc.rank), 10)
		b = append(b, "->"...)
		b = strconv.AppendInt(b, int64(up), 10)
	}
	return b
}

// channelLines renders one channel's ring connections: P2P to a next rank on
// the same host, NET [send]/[receive] across hosts. Brackets hold nvmlDev.
func (g *gen) channelLines(l *lines, head func() []byte, p *proc, rc *rankComm, ch int) {
	members := rc.info.members
	n := len(members)
	next := &g.topo.procs[members[(rc.rank+1)%n]]
	prev := &g.topo.procs[members[(rc.rank+n-1)%n]]
	netDev := strconv.Itoa(p.dev / 2 % 4)
	if prev.host != p.host {
		b := appendConn(head(), ch, (rc.rank+n-1)%n, prev.dev, rc.rank, p.dev)
		l.add(append(b, " [receive] via NET/IB/"+netDev+"/GDRDMA"...))
	}
	b := appendConn(head(), ch, rc.rank, p.dev, (rc.rank+1)%n, next.dev)
	if next.host == p.host {
		l.add(append(b, " via P2P/CUMEM/read"...))
		return
	}
	l.add(append(b, " [send] via NET/IB/"+netDev+"/GDRDMA"...))
}

// appendConn appends "Channel %02d/0 : from[fdev] -> to[tdev]".
func appendConn(b []byte, ch, from, fdev, to, tdev int) []byte {
	b = append(b, "Channel "...)
	b = appendPad(b, ch, 2, '0')
	b = append(b, "/0 : "...)
	b = strconv.AppendInt(b, int64(from), 10)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(fdev), 10)
	b = append(b, "] -> "...)
	b = strconv.AppendInt(b, int64(to), 10)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(tdev), 10)
	return append(b, ']')
}

// timings renders the "Init timings" line on the main thread, or nil where
// the version prints none. 2.22 has the "Init timings:" form; 2.21 and 2.23+
// the "Init timings - api:" form with alloc.
func (g *gen) timings(p *proc, rc *rankComm, api string) []byte {
	if !g.v.atLeast(21) {
		return nil
	}
	names := []string{"kernels", "alloc", "bootstrap", "allgathers", "topo", "graphs", "connections", "rest"}
	if g.v.minor == 22 {
		names = []string{"kernels", "bootstrap", "allgathers", "topo", "graphs", "connections", "rest"}
	}
	vals := make([]float64, len(names))
	total := 0.0
	for i := range vals {
		vals[i] = float64(g.rng.IntN(40)) / 100
		total += vals[i]
	}
	b := p.appendHead(nil, p.pid)
	if g.v.minor == 22 {
		b = append(b, "Init timings: rank "...)
	} else {
		b = append(b, "Init timings - "+api+": rank "...)
	}
	b = strconv.AppendInt(b, int64(rc.rank), 10)
	b = appendKV(b, " nranks ", len(rc.info.members))
	b = append(b, " total "...)
	b = strconv.AppendFloat(b, total, 'f', 2, 64)
	for i, name := range names {
		if i == 0 {
			b = append(b, " ("...)
		} else {
			b = append(b, ", "...)
		}
		b = append(b, name+" "...)
		b = strconv.AppendFloat(b, vals[i], 'f', 2, 64)
	}
	return append(b, ')')
}

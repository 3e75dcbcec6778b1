package gen

import (
	"fmt"
	"strings"
)

const (
	setupCommID   = 0x5eed00c0ffee1234
	setupChannels = 2
)

func setupBusID(local int) int { return 0x18000 + local*0x11000 }

// initLine renders Init START or COMPLETE in the family's form (§3.1).
func (s *setupGen) initLine(p setupRank, complete bool) string {
	f := s.f
	fields := fmt.Sprintf("comm 0x7f00%08x rank %d nranks %d cudaDev %d", 0x1000*(p.r+1), p.r, s.n, p.local)
	switch {
	case f.minor <= 4:
		return fields + fmt.Sprintf(" nvmlDev %d - Init COMPLETE", p.local)
	case f.minor < 18:
		return fields + fmt.Sprintf(" busId %x - Init COMPLETE", setupBusID(p.local))
	}
	fields += fmt.Sprintf(" nvmlDev %d busId %x commId 0x%x", p.local, setupBusID(p.local), uint64(setupCommID))
	event := " - Init START"
	if complete {
		event = " - Init COMPLETE"
		if f.rccl {
			event = fmt.Sprintf(" localSize 512 used 2099200 bytes on core %d - Init COMPLETE", 10+p.local)
		}
	}
	switch {
	case f.minor >= 29 && !complete:
		return fmt.Sprintf("[Rank %d] ncclCommInitRank ", p.r) + fields + event
	case f.minor >= 21:
		return "ncclCommInitRank " + fields + event
	}
	return fields + event
}

// topologyLines renders the layout line, ring dump (rank 0), connections, channel counts and
// "Connected all rings".
func (s *setupGen) topologyLines(p setupRank, add func(string)) {
	f := s.f
	if f.minor >= 20 {
		add(fmt.Sprintf("comm 0x7f00%08x rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0",
			0x1000*(p.r+1), p.r, s.n, s.c.Hosts, s.c.RanksPerHost, p.local))
	}
	if p.r == 0 {
		for ch := 0; ch < setupChannels; ch++ {
			add(s.ringDump(ch))
		}
	}
	for ch := 0; ch < setupChannels; ch++ {
		s.connLines(p, ch, add)
	}
	switch {
	case f.minor >= 20:
		add(fmt.Sprintf("%d coll channels, 0 collnet channels, 0 nvls channels, %d p2p channels, 2 p2p channels per peer", setupChannels, setupChannels))
	case f.minor >= 17:
		add(fmt.Sprintf("%d coll channels, 0 nvls channels, %d p2p channels, 2 p2p channels per peer", setupChannels, setupChannels))
	case f.minor >= 7:
		add(fmt.Sprintf("%d coll channels, %d p2p channels, 2 p2p channels per peer", setupChannels, setupChannels))
	}
	switch {
	case f.minor >= 24:
		gdr := 1
		if !s.gdr(p.host) {
			gdr = 0
		}
		add(fmt.Sprintf("Connected all rings, use ring PXN 0 GDR %d", gdr))
	case f.minor >= 8:
		add("Connected all rings")
	}
}

func (s *setupGen) ringDump(ch int) string {
	var b strings.Builder
	if s.f.minor <= 4 {
		fmt.Fprintf(&b, "Channel %02d : ", ch)
	} else {
		fmt.Fprintf(&b, "Channel %02d/%02d : ", ch, setupChannels)
	}
	for r := 0; r < min(s.n, 20); r++ {
		fmt.Fprintf(&b, " %3d", (r+ch)%s.n)
	}
	return b.String()
}

// gdr reports whether host h's network links use GPUDirect RDMA.
func (s *setupGen) gdr(h int) bool { return !is(s.c.NoGDRHost, h) && !is(s.c.SocketHost, h) }

// connLines renders one channel's ring connections of rank p: P2P to a next rank on the same
// host, NET [send] to one on another and NET [receive] from a previous one on another (§4.4).
func (s *setupGen) connLines(p setupRank, ch int, add func(string)) {
	next, prev := s.place((p.r+1)%s.n), s.place((p.r+s.n-1)%s.n)
	if s.n == 1 {
		return
	}
	if prev.host != p.host {
		add(s.conn(ch, prev, p) + " [receive] via " + s.netVia(p))
	}
	if next.host != p.host {
		add(s.conn(ch, p, next) + " [send] via " + s.netVia(p))
		return
	}
	add(s.conn(ch, p, next) + " via " + s.p2pVia())
}

// conn is "Channel 00/0 : a[d] -> b[d]" in the family's form; 2.4 NET lines, which print no
// devices, are not made here.
func (s *setupGen) conn(ch int, a, b setupRank) string {
	f := s.f
	net := a.host != b.host
	switch {
	case f.minor <= 4 && net:
		return fmt.Sprintf("Ring %02d : %d -> %d", ch, a.r, b.r)
	case f.minor <= 4:
		return fmt.Sprintf("Ring %02d : %d[%d] -> %d[%d]", ch, a.r, a.local, b.r, b.local)
	}
	head := fmt.Sprintf("Channel %02d", ch)
	if f.minor >= 14 || net && f.minor >= 12 {
		head += "/0"
	}
	if f.minor >= 18 {
		return fmt.Sprintf("%s : %d[%d] -> %d[%d]", head, a.r, a.local, b.r, b.local)
	}
	return fmt.Sprintf("%s : %d[%x] -> %d[%x]", head, a.r, setupBusID(a.local), b.r, setupBusID(b.local))
}

func (s *setupGen) netVia(p setupRank) string {
	if is(s.c.SocketHost, p.host) {
		return "NET/Socket/0"
	}
	via := fmt.Sprintf("NET/IB/%d", p.local/2%2)
	if s.gdr(p.host) {
		via += "/GDRDMA"
	}
	return via
}

func (s *setupGen) p2pVia() string {
	switch {
	case s.f.rccl || s.f.minor < 18:
		return "P2P/IPC"
	case s.f.minor < 22:
		return "P2P/IPC/read"
	}
	return "P2P/CUMEM/read"
}

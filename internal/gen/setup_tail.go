package gen

import "fmt"

// timings renders the Init timings line (2.22+), or "".
func (s *setupGen) timings(p setupRank) string {
	total := 1.0 + float64(p.r%5)*0.07
	switch {
	case s.f.rccl || s.f.minor < 22:
		return ""
	case s.f.minor == 22:
		return fmt.Sprintf("Init timings: rank %d nranks %d total %.2f (kernels 0.20, bootstrap 0.30, allgathers 0.01, topo 0.10, graphs 0.01, connections 0.20, rest %.2f)",
			p.r, s.n, total, total-0.82)
	}
	return fmt.Sprintf("Init timings - ncclCommInitRank: rank %d nranks %d total %.2f (kernels 0.20, alloc 0.05, bootstrap 0.30, allgathers 0.01, topo 0.10, graphs 0.01, connections 0.20, rest %.2f)",
		p.r, s.n, total, total-0.87)
}

// tuning renders rank 0's TUNING lines (2.20+): small sizes go to TREE/LL, middle ones to
// RING/LL128, large ones to RING/SIMPLE.
func (s *setupGen) tuning(add func(string)) {
	if s.f.minor < 20 {
		return
	}
	for _, t := range []struct {
		bytes       int
		algo, proto int
	}{{1024, 0, 0}, {4096, 0, 0}, {65536, 1, 1}, {262144, 1, 1}, {1 << 20, 1, 2}, {16 << 20, 1, 2}} {
		if s.f.minor >= 24 {
			add(fmt.Sprintf("AllReduce: %d Bytes -> Algo %s proto %s channel{Lo..Hi}={0..%d}",
				t.bytes, []string{"TREE", "RING"}[t.algo], []string{"LL", "LL128", "SIMPLE"}[t.proto], setupChannels-1))
			continue
		}
		add(fmt.Sprintf("%d Bytes -> Algo %d proto %d time %.6f", t.bytes, t.algo, t.proto, 10+float64(t.bytes)/1e5))
	}
}

// warnChain renders a WARN from the rank's proxy thread and the backtrace that carries its
// error up (§1.3, §5.4), in the family's forms.
func (s *setupGen) warnChain(p setupRank) {
	f := s.f
	host := setupHost(p.host)
	stamp, fn, thread := "", "", ""
	if f.minor >= 26 && !f.rccl {
		stamp = "[2026-03-01 12:00:05] "
	}
	if f.minor >= 30 {
		fn = " (ncclIbTest)"
	}
	switch {
	case f.minor >= 19:
		thread = " [Progress Thread]"
	case f.minor >= 9:
		thread = " [Proxy Thread]"
	}
	peer := fmt.Sprintf("10.1.0.%d", 10+(p.host+1)%s.c.Hosts)
	s.out[p.r] = append(s.out[p.r], "",
		fmt.Sprintf("%s%s:%d:%d [%d] transport/net_ib.cc:1422%s NCCL WARN NET/IB : Got completion from peer %s<52311> with status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.1.0.%d remoteGid ::ffff:%s",
			stamp, host, p.pid, p.proxy, p.local, fn, peer, 10+p.host, peer))
	frame := func(loc, fnName, tail string) {
		if f.minor >= 30 {
			loc += " (" + fnName + ")"
		}
		s.out[p.r] = append(s.out[p.r], s.head(p, p.proxy)+loc+" -> 6"+tail)
	}
	frame("transport/net.cc:1298", "netTest", "")
	frame("proxy.cc:694", "progressOps", "")
	frame("proxy.cc:874", "ncclProxyProgress", thread)
}

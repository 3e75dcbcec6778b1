package gen

import (
	"fmt"
	"strings"
)

// setupRank is one rank's place: host, local rank, process and threads.
type setupRank struct {
	r, host, local  int
	pid, tid, proxy int
}

func (s *setupGen) place(r int) setupRank {
	h, l := r/s.c.RanksPerHost, r%s.c.RanksPerHost
	p := setupRank{r: r, host: h, local: l, pid: 4000 + r*11}
	p.tid = p.pid
	if s.c.OneProcess {
		// One thread per GPU, as ncclCommInitAll and nccl-tests -g N start them.
		p.pid = 4000 + h*100
		p.tid = p.pid + l
	}
	p.proxy = p.pid + 50 + l
	return p
}

func (s *setupGen) head(p setupRank, tid int) string {
	return fmt.Sprintf("%s:%d:%d [%d] NCCL INFO ", setupHost(p.host), p.pid, tid, p.local)
}

func is(h *int, v int) bool { return h != nil && *h == v }

// rankLines renders rank r's set-up lines.
func (s *setupGen) rankLines(r int) {
	p := s.place(r)
	add := func(tid int, msg string) { s.out[r] = append(s.out[r], s.head(p, tid)+msg) }
	if !s.c.OneProcess || p.local == 0 {
		s.processLines(p, func(msg string) { add(p.pid, msg) })
	}
	main := func(msg string) { add(p.tid, msg) }
	if s.f.minor >= 18 || s.f.rccl {
		main(s.initLine(p, false))
	}
	s.topologyLines(p, main)
	main(s.initLine(p, true))
	if t := s.timings(p); t != "" {
		main(t)
	}
	if r == 0 {
		s.tuning(main)
	}
	if is(s.c.WarnRank, r) {
		s.warnChain(p)
	}
}

// processLines are the lines a process prints once: version (2.22+), bootstrap,
// environment, network.
func (s *setupGen) processLines(p setupRank, add func(string)) {
	ip := fmt.Sprintf("10.1.0.%d", 10+p.host)
	if s.f.minor >= 22 && !s.f.rccl {
		v := s.f.version
		if is(s.c.VersionRank, p.r) {
			v = nextPatch(v)
		}
		add("NCCL version " + v)
	}
	if s.f.minor >= 13 && !s.f.rccl {
		add("cudaDriverVersion 12040")
	}
	boot := "Bootstrap : Using ib0:"
	if s.f.minor >= 24 {
		boot = "Bootstrap: Using ib0:"
	}
	add(boot + ip + "<0>")
	add("NCCL_SOCKET_IFNAME set by environment to ib0")
	add("NCCL_IB_GID_INDEX set by environment to 3.")
	if is(s.c.EnvRank, p.r) {
		add("NCCL_IB_HCA set to mlx5_0,mlx5_1")
	}
	s.network(p, ip, add)
}

func (s *setupGen) network(p setupRank, ip string, add func(string)) {
	name := "IB"
	if is(s.c.SocketHost, p.host) {
		name = "Socket"
		add("NET/IB : No device found.")
		add("NET/Socket : Using [0]eth0:" + ip + "<0>")
	} else {
		ro := " "
		if s.f.minor >= 12 {
			ro = " [RO]"
		}
		add("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB" + ro + "; OOB ib0:" + ip + "<0>")
	}
	if s.f.minor >= 6 {
		add("Using network " + name)
	}
}

// nextPatch is v with its patch number one higher: 2.22.3+cuda12.4 gives 2.22.4+cuda12.4.
func nextPatch(v string) string {
	num, cuda, _ := strings.Cut(v, "+")
	i := strings.LastIndexByte(num, '.')
	var patch int
	fmt.Sscanf(num[i+1:], "%d", &patch)
	return fmt.Sprintf("%s.%d+%s", num[:i], patch+1, cuda)
}

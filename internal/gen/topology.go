package gen

import (
	"bufio"
	"math/rand/v2"
	"strconv"
)

// commInfo describes one communicator, shared by all of its ranks.
type commInfo struct {
	id      uint64 // commId hash, the same on every rank
	members []int  // global ranks, indexed by comm rank
	color   int    // split color; -1 for the world communicator
}

// rankComm is one rank's view of one communicator.
type rankComm struct {
	info    *commInfo
	rank    int
	ptr     uint64
	stream  uint64
	opCount uint64
	tail    []byte // " comm 0x… [nranks=N] stream 0x…"
}

// proc is one process (one rank, one GPU).
type proc struct {
	rank, host, dev      int
	pid, initTid, splTid int
	warnTid              int
	busID                uint64
	head                 []byte // "host:pid:pid [dev] NCCL INFO "
	prefix               []byte // launcher prefix, empty for none and timestamp
	comms                [2]rankComm
	w                    *bufio.Writer // where this process's lines go
	silent               bool          // prints nothing more (missing, stopped or aborted)
	waiting              bool          // stopped in the watchdog rank's work, to print the timeout
	waitOp               opKind        // the op of that work, and its count
	waitCount            int64
	worldCalls           int // calls issued on the world communicator so far
}

// topology holds every process and communicator of the job.
type topology struct {
	procs  []proc
	world  *commInfo
	nHosts int
	minSub int // size of the smallest split communicator
}

// Communicator indexes in proc.comms.
const (
	commWorld = 0
	commSub   = 1
)

func hostName(h int) string {
	if h < 10 {
		return "gpu-node-0" + strconv.Itoa(h)
	}
	return "gpu-node-" + strconv.Itoa(h)
}

// busID gives typical PCI bus ids of an 8-GPU server, packed as NCCL prints them.
func busID(dev int) uint64 {
	ids := [8]uint64{0x18000, 0x2a000, 0x3a000, 0x5d000, 0x9a000, 0xab000, 0xba000, 0xdb000}
	if dev < len(ids) {
		return ids[dev]
	}
	return uint64(0x100000 + dev*0x1000)
}

func newTopology(c Config, rng *rand.Rand) *topology {
	t := &topology{nHosts: (c.Ranks + c.RanksPerHost - 1) / c.RanksPerHost}
	t.procs = make([]proc, c.Ranks)
	used := map[[2]int]bool{}
	for r := range t.procs {
		if g := c.GPUsPerProcess; g > 1 && r%g != 0 {
			t.procs[r] = sharedProc(t.procs[r-r%g], r, c.RanksPerHost)
			continue
		}
		p := newProc(r, c.RanksPerHost, rng)
		for used[[2]int{p.host, p.pid}] {
			p = newProc(r, c.RanksPerHost, rng)
		}
		used[[2]int{p.host, p.pid}] = true
		t.procs[r] = p
	}
	t.world = &commInfo{id: rng.Uint64(), color: -1, members: make([]int, c.Ranks)}
	for r := range t.world.members {
		t.world.members[r] = r
	}
	t.attach(commWorld, t.world, rng)
	t.minSub = c.Ranks
	for _, sub := range t.splitComms(c) {
		t.attach(commSub, sub, rng)
		t.minSub = min(t.minSub, len(sub.members))
	}
	return t
}

func newProc(r, rph int, rng *rand.Rand) proc {
	p := proc{rank: r, host: r / rph, dev: r % rph, busID: busID(r % rph)}
	p.pid = 2000 + rng.IntN(90000)
	p.initTid = p.pid + 170 + rng.IntN(20)
	p.splTid = p.initTid + 10 + rng.IntN(40)
	p.warnTid = p.pid + 5 + rng.IntN(5)
	p.head = p.appendHead(nil, p.pid)
	return p
}

// sharedProc is rank r driven by the process of rank lead: the same host and
// pid, its own device and threads.
func sharedProc(lead proc, r, rph int) proc {
	k := r - lead.rank
	p := proc{rank: r, host: lead.host, dev: r % rph, busID: busID(r % rph), pid: lead.pid}
	p.initTid = lead.initTid + k
	p.splTid = lead.splTid + k
	p.warnTid = lead.warnTid
	p.head = p.appendHead(nil, p.pid+k)
	return p
}

// appendHead appends "host:pid:tid [dev] NCCL INFO ".
func (p *proc) appendHead(b []byte, tid int) []byte {
	b = append(b, hostName(p.host)...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(p.pid), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, " ["...)
	b = strconv.AppendInt(b, int64(p.dev), 10)
	return append(b, "] NCCL INFO "...)
}

// splitComms builds the data-parallel sub-communicators. With several hosts
// the ranks with the same local rank form a group (one rank per host);
// on one host the ranks are paired.
func (t *topology) splitComms(c Config) []*commInfo {
	stride := min(c.RanksPerHost, c.Ranks)
	if t.nHosts < 2 {
		stride = max(1, (c.Ranks+1)/2)
	}
	subs := make([]*commInfo, stride)
	for color := range subs {
		id := t.world.id ^ (uint64(color)+1)*0x9e3779b97f4a7c15
		subs[color] = &commInfo{id: id, color: color}
	}
	for r := 0; r < c.Ranks; r++ {
		s := subs[r%stride]
		s.members = append(s.members, r)
	}
	return subs
}

// attach gives each member of ci its pointers and precomputed line tail.
func (t *topology) attach(idx int, ci *commInfo, rng *rand.Rand) {
	for cr, g := range ci.members {
		rc := &t.procs[g].comms[idx]
		rc.info = ci
		rc.rank = cr
		rc.ptr = 0x55d000000000 | rng.Uint64()&0xfffffff0
		rc.stream = 0x55e000000000 | rng.Uint64()&0xfffffff0
		rc.tail = appendTail(nil, rc)
	}
}

func appendTail(b []byte, rc *rankComm) []byte {
	b = append(b, " comm 0x"...)
	b = strconv.AppendUint(b, rc.ptr, 16)
	b = append(b, " [nranks="...)
	b = strconv.AppendInt(b, int64(len(rc.info.members)), 10)
	b = append(b, "] stream 0x"...)
	return strconv.AppendUint(b, rc.stream, 16)
}

// layout gives the node counts of a comm as seen by one of its ranks:
// the number of hosts, the ranks on this rank's host and its index there.
func (t *topology) layout(ci *commInfo, g int) (nNodes, localRanks, localRank int) {
	// A slice by host index, not a map: every rank of a 4,096-rank init asks, and a map's
	// inserts made the init mix take seconds to generate.
	seen := make([]bool, t.nHosts)
	host := t.procs[g].host
	for _, m := range ci.members {
		h := t.procs[m].host
		if !seen[h] {
			seen[h] = true
			nNodes++
		}
		if h == host {
			if m == g {
				localRank = localRanks
			}
			localRanks++
		}
	}
	return nNodes, localRanks, localRank
}

// tree gives a rank's tree links in comm-rank space: two children and the parent.
// Ranks on a host form a chain; host leaders form a chain across hosts.
func (t *topology) tree(ci *commInfo, cr int) (down0, down1, up int) {
	down0, down1, up = -1, -1, -1
	host := func(i int) int { return t.procs[ci.members[i]].host }
	prevSame, nextSame, prevLeader, nextLeader := -1, -1, -1, -1
	for i := cr - 1; i >= 0 && prevSame < 0; i-- {
		if host(i) == host(cr) {
			prevSame = i
		}
	}
	for i := cr + 1; i < len(ci.members) && nextSame < 0; i++ {
		if host(i) == host(cr) {
			nextSame = i
		}
	}
	leader := func(i int) bool { return i == 0 || host(i) != host(i-1) }
	for i := cr - 1; i >= 0 && prevLeader < 0; i-- {
		if leader(i) && host(i) != host(cr) {
			prevLeader = i
		}
	}
	for i := cr + 1; i < len(ci.members) && nextLeader < 0; i++ {
		if leader(i) && host(i) != host(cr) {
			nextLeader = i
		}
	}
	down0 = nextSame
	if prevSame >= 0 {
		return down0, -1, prevSame
	}
	return down0, nextLeader, prevLeader
}

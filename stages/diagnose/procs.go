package diagnose

import (
	"fmt"
	"slices"
)

// proc is one process the evidence names: host:pid where known, its global rank.
type proc struct {
	host string
	pid  int64
	rank int64 // the rank in its widest communicator; -1 where unknown
	gpu  int64
	// label names a process known by neither host nor rank: torchrun's agent's child by its
	// local rank and pid.
	label string
	// n is the process's place in procIndex.order, from 1; 0 for a process not listed there.
	n int
}

func (p *proc) name() string {
	if p.label != "" {
		return p.label
	}
	switch {
	case p.pid < 0 && p.host == "":
		return fmt.Sprintf("rank %d", p.rank)
	case p.pid < 0:
		return p.host
	case p.host == "":
		return fmt.Sprintf("pid %d", p.pid)
	}
	return fmt.Sprintf("%s:%d", p.host, p.pid)
}

// procIndex ties ranks, hosts and pids together from the communicators' lines and the
// launcher labels on NCCL lines.
type procIndex struct {
	// pidFirst is the first process get made of each pid (0 or more); byKey the others, and
	// those without a pid and the launcher's (hostRank). A process is looked up for each of
	// thousands of communicators (a log of set-up): by its pid, the map's path for 64-bit
	// keys, where a key with its host's string took the generic path, hashed field by field.
	pidFirst map[int64]*proc
	byKey    map[commKeyProc]*proc
	byRank   map[int64]*proc
	order    []*proc
	world    int64 // the widest communicator's size
	// lone is the one process the NCCL lines showed (lone.go), nil where none or several.
	lone *LoneProc
	// hostPid is the one pid the log shows on each host, -1 where it shows several.
	hostPid map[string]int64
	procs   slab[proc]
	// commProcs is the process of each of the evidence's communicators, in their order:
	// indexComms lists them by process without looking each up again.
	commProcs []*proc
}

type commKeyProc struct {
	host string
	pid  int64
}

func newProcIndex(e *Evidence) *procIndex {
	// Each communicator line names one process at most: the maps are sized for them, not
	// grown a doubling at a time (a 4,096-rank init's thousands of processes).
	n := min(len(e.Comms), maxComms)
	x := &procIndex{pidFirst: make(map[int64]*proc, n), byKey: map[commKeyProc]*proc{}, byRank: make(map[int64]*proc, n),
		lone: e.Lone()}
	for _, c := range e.Comms {
		x.world = max(x.world, c.NRanks)
	}
	x.commProcs = make([]*proc, len(e.Comms))
	var several []*proc // processes of several ranks (below)
	for i, c := range e.Comms {
		p := x.get(c.Host, c.Pid)
		x.commProcs[i] = p
		if p.gpu < 0 {
			p.gpu = c.GPU
		}
		if c.NRanks == x.world && c.Rank >= 0 {
			several = x.rankOf(p, c.Rank, several)
		}
	}
	x.hostPid = hostPids(x.order, e.Items) // x.order: the communicators' processes, once each
	for i := range e.Items {
		it := &e.Items[i]
		if it.Host == "" || it.Pid < 0 || it.Rank < 0 || it.Ev == evSetting {
			continue // a setting: no evidence, so no process of the findings
		}
		p := x.get(it.Host, it.Pid)
		if it.Ev == evTestRank {
			several = x.rankOf(p, it.Rank, several)
			continue
		}
		if p.rank < 0 {
			p.rank = it.Rank
		}
		if _, ok := x.byRank[it.Rank]; !ok {
			x.byRank[it.Rank] = p
		}
	}
	for _, p := range several {
		p.rank = -1
	}
	return x
}

// rankOf gives p rank r, one of the NCCL ranks its lines or nccl-tests' header list: a
// process that drives several GPUs (nccl-tests -g 8, ncclCommInitAll) has one rank for each,
// and is named by none (a finding on its GPU 7 is not rank 0's); each rank still names it.
// several lists those processes, to be told so once all are read.
func (x *procIndex) rankOf(p *proc, r int64, several []*proc) []*proc {
	if _, ok := x.byRank[r]; !ok {
		x.byRank[r] = p
	}
	switch {
	case p.rank < 0 && !slices.Contains(several, p):
		p.rank = r
	case p.rank >= 0 && p.rank != r:
		several = append(several, p)
		p.rank = -1
	}
	return several
}

func (x *procIndex) get(host string, pid int64) *proc {
	if pid >= 0 {
		p := x.pidFirst[pid]
		if p == nil {
			return x.add(host, pid, true)
		}
		if p.host == host {
			return p
		}
	}
	if p := x.byKey[commKeyProc{host, pid}]; p != nil {
		return p
	}
	return x.add(host, pid, false)
}

// add makes host's process pid, the first of its pid where first.
func (x *procIndex) add(host string, pid int64, first bool) *proc {
	p := x.procs.new()
	x.order = append(x.order, p)
	*p = proc{host: host, pid: pid, rank: -1, gpu: -1, n: len(x.order)}
	if first {
		x.pidFirst[pid] = p
	} else {
		x.byKey[commKeyProc{host, pid}] = p
	}
	return p
}

// of is the process an item is about, or nil where the item names none.
func (x *procIndex) of(it *Item) *proc {
	switch {
	case it.Host != "" && it.Pid >= 0:
		return x.get(it.Host, it.Pid)
	case it.Rank >= 0:
		if p := x.byRank[it.Rank]; p != nil {
			return p
		}
		if it.Host != "" {
			return x.hostRank(it.Host, it.Rank)
		}
		if it.Pid >= 0 {
			p := x.pidOnly(it.Pid)
			if p.rank < 0 {
				p.rank = it.Rank
			}
			return p
		}
		return x.rankOnly(it.Rank)
	case it.Host != "":
		if pid, ok := x.hostPid[it.Host]; ok && pid >= 0 {
			return x.get(it.Host, pid) // the host's one process
		}
		return x.hostRank(it.Host, -1)
	case it.Pid >= 0:
		return x.pidOnly(it.Pid)
	}
	return nil
}

// pidOnly is the process of a launcher's prefix that names the pid alone (Ray's `(pid=927)`,
// `(WorkerDict pid=3943529)`): the one the NCCL lines know by that pid where they know one.
func (x *procIndex) pidOnly(pid int64) *proc {
	if p := x.byPid(pid); p != nil {
		return p
	}
	return x.get("", pid)
}

// hostRank is a process known by its host (and rank) only: the launcher's word.
func (x *procIndex) hostRank(host string, rank int64) *proc {
	k := commKeyProc{host + fmt.Sprintf("#%d", rank), -1}
	if p := x.byKey[k]; p != nil {
		return p
	}
	p := &proc{host: host, pid: -1, rank: rank, gpu: -1}
	x.byKey[k] = p
	return p
}

func (x *procIndex) rankOnly(rank int64) *proc { return x.hostRank("", rank) }

// ranksOf lists the known ranks of ps, sorted, once each.
func ranksOf(ps []*proc) []int64 {
	var rs []int64
	for _, p := range ps {
		if p.rank >= 0 && !slices.Contains(rs, p.rank) {
			rs = append(rs, p.rank)
		}
	}
	slices.Sort(rs)
	return rs
}

func hostsOf(ps []*proc) []string {
	var hs []string
	for _, p := range ps {
		if p.host != "" && !slices.Contains(hs, p.host) {
			hs = append(hs, p.host)
		}
	}
	return hs
}

func namesOf(ps []*proc) []string {
	var ns []string
	for _, p := range ps {
		// A host's process without a pid (a collector printed `host [dev]`) is named by
		// its host where no process of that host is named by pid; a rank alone names none.
		if (p.pid >= 0 || p.host != "" && !hostHasPid(ps, p.host)) && !slices.Contains(ns, p.name()) {
			ns = append(ns, p.name())
		}
	}
	return ns
}

func hostHasPid(ps []*proc, host string) bool {
	return slices.ContainsFunc(ps, func(p *proc) bool { return p.host == host && p.pid >= 0 })
}

// hostPids maps each host the communicators' processes, procs, and the evidence, items, name
// with a pid to that pid where they name one, -1 where several: a line that names only its
// host (nccl-tests' `gpu5: Test NCCL failure ...`, libmlx5's) is that process's where it is
// the host's only one. The processes are read rather than the communicators: each once,
// where a process has several communicators (a set-up's splits).
func hostPids(procs []*proc, items []Item) map[string]int64 {
	m := map[string]int64{}
	see := func(host string, pid int64) {
		if host == "" || pid < 0 {
			return
		}
		if q, ok := m[host]; !ok {
			m[host] = pid
		} else if q != pid {
			m[host] = -1
		}
	}
	for _, p := range procs {
		see(p.host, p.pid)
	}
	for i := range items {
		see(items[i].Host, items[i].Pid)
	}
	return m
}

// enveloped is how many processes the index knows by host and pid (an NCCL line's head).
func (x *procIndex) enveloped() int64 {
	var n int64
	for _, p := range x.order {
		if p.host != "" && p.pid >= 0 {
			n++
		}
	}
	return n
}

// onHosts is how many processes the index knows by pid on each host.
func (x *procIndex) onHosts() map[string]int {
	n := map[string]int{}
	for _, p := range x.order {
		if p.pid >= 0 {
			n[p.host]++
		}
	}
	return n
}

package ranks

import (
	"cmp"
	"maps"
	"slices"
)

// openComm is, for one process and size, the communicator of that size it last used without
// a commId, with the devices and ranks it has used for it.
type openComm struct {
	key      GroupKey
	firstDev int64
	devs     map[int64]bool
	ranks    map[int64]bool
	n        int64
}

// joins reports whether a pointer on device dev with rank rank (-1: unknown) can be another
// rank of the communicator this process drives: a device or rank it has not used for it yet.
func (o *openComm) joins(dev, rank int64) bool {
	if o == nil || o.n >= o.key.NRanks {
		return false
	}
	if rank >= 0 {
		return !o.ranks[rank] && (dev < 0 || !o.devs[dev])
	}
	return dev >= 0 && !o.devs[dev]
}

func (o *openComm) add(dev, rank int64) {
	o.n++
	if dev >= 0 {
		o.devs[dev] = true
	}
	if rank >= 0 {
		o.ranks[rank] = true
	}
}

// inferredKey is the group of a communicator of size n that no commId names, first used by
// this process on device dev as rank rank (-1: unknown): another rank of the one it used last
// of that size where the device or rank is new to it, else the next of that size. dev is the
// device to record for the rank: only where one process drives several ranks of the group.
func (p *proc) inferredKey(n, dev, rank int64) (GroupKey, int64) {
	var o *openComm
	if p.inferred != nil {
		o = p.inferred.open[n]
	}
	if o.joins(dev, rank) {
		if o.n == 1 {
			for _, m := range p.members {
				if m.CudaDev < 0 && m.g.Key == o.key {
					m.CudaDev = o.firstDev
				}
			}
		}
		o.add(dev, rank)
		return o.key, dev
	}
	if p.inferred == nil {
		p.inferred = &procInferred{make(map[int64]int64), make(map[int64]*openComm)}
	}
	in := p.inferred
	in.sizeSeq[n]++
	o = &openComm{key: GroupKey{NRanks: n, Seq: in.sizeSeq[n]}, devs: map[int64]bool{}, ranks: map[int64]bool{}, firstDev: dev}
	o.add(dev, rank)
	in.open[n] = o
	return o.key, -1
}

// adoptInferred joins each communicator grouped by inference (no Init line in its processes'
// logs: an excerpt that starts after init) to the one communicator of its size that Init lines
// name, where there is exactly one, its processes are not already ranks of it, and together
// they have no more ranks than it does. Ranks of one communicator are then judged together
// whether their Init lines are in the input or not.
func (r *Ranks) adoptInferred() {
	named := map[int64][]*Group{}
	for _, g := range r.groups {
		if !g.Inferred() {
			named[g.NRanks] = append(named[g.NRanks], g)
		}
	}
	for _, key := range slices.SortedFunc(maps.Keys(r.groups), compareKeys) {
		g := r.groups[key]
		if !g.Inferred() || len(named[g.NRanks]) != 1 {
			continue
		}
		if to := named[g.NRanks][0]; fits(to, g) {
			delete(r.groups, key)
			r.join(to, g, &g.ref)
		}
	}
}

func compareKeys(a, b GroupKey) int {
	return cmp.Or(cmp.Compare(a.NRanks, b.NRanks), cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.CommID, b.CommID))
}

// fits reports whether the ranks of g can be further ranks of to.
func fits(to, g *Group) bool {
	if len(to.Members)+len(g.Members) > int(to.NRanks) {
		return false
	}
	procs := map[procKey]bool{}
	ranks := map[int64]bool{}
	for _, m := range to.Members {
		procs[procKey{m.File, m.Host, m.Pid}] = true
		ranks[m.Rank] = true
	}
	for _, m := range g.Members {
		if procs[procKey{m.File, m.Host, m.Pid}] || (m.Rank >= 0 && ranks[m.Rank]) {
			return false
		}
	}
	return true
}

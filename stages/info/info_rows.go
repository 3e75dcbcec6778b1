package info

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

func (in *Info) commRows() []CommRow {
	rows := make([]CommRow, 0, len(in.comms))
	for _, key := range in.commOrder {
		c := in.comms[key]
		hosts := map[string]struct{}{}
		for _, r := range c.ranks {
			hosts[r.proc.Host] = struct{}{}
		}
		r := CommRow{Comm: key, NRanks: c.nranks, RanksSeen: len(c.ranks), Hosts: len(hosts),
			Layout: sortedKeys(c.layout), Channels: sortedKeys(c.channels), Rings: sortedKeys(c.rings), Links: linkRows(c.links)}
		r.Transport = verdict(r.Links)
		rows = append(rows, r)
	}
	// Largest first, then by key: the order the inputs were named in does not matter.
	slices.SortStableFunc(rows, func(a, b CommRow) int {
		return cmp.Or(cmp.Compare(b.NRanks, a.NRanks), cmp.Compare(a.Comm, b.Comm))
	})
	return rows
}

func linkRows(m map[linkClass]int64) []LinkRow {
	rows := make([]LinkRow, 0, len(m))
	for k, n := range m {
		rows = append(rows, LinkRow{Transport: k.Transport, Net: k.Net, Links: n})
	}
	slices.SortFunc(rows, func(a, b LinkRow) int {
		if a.Net != b.Net {
			if a.Net {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(b.Links, a.Links), cmp.Compare(a.Transport, b.Transport))
	})
	return rows
}

// verdict says in one line how a communicator's ranks are connected:
// "inter-node NET/IB/GDRDMA on all 64 links; intra-node P2P/CUMEM/read on all 112 links".
func verdict(links []LinkRow) string {
	var parts []string
	for _, net := range []bool{true, false} {
		var total int64
		var each []string
		for _, l := range links {
			if l.Net == net {
				total += l.Links
				each = append(each, fmt.Sprintf("%s on %d", l.Transport, l.Links))
			}
		}
		where := "intra-node"
		if net {
			where = "inter-node"
		}
		switch {
		case total == 0:
		case len(each) == 1:
			parts = append(parts, fmt.Sprintf("%s %s on all %d links", where, strings.TrimSuffix(each[0], fmt.Sprintf(" on %d", total)), total))
		default:
			parts = append(parts, fmt.Sprintf("%s mixed: %s of %d links", where, strings.Join(each, ", "), total))
		}
	}
	if len(parts) == 0 {
		return "no connection lines"
	}
	return strings.Join(parts, "; ")
}

func (in *Info) procsOf(m map[procID]struct{}) []*procInfo {
	ps := make([]*procInfo, 0, len(m))
	for k := range m {
		if p := in.procs[k]; p != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

func (in *Info) warnRows() []WarnRow {
	rows := make([]WarnRow, 0, len(in.warns.order))
	for _, t := range in.warns.order {
		g := in.warns.groups[t]
		ranks, hosts := ranksHosts(in.procsOf(g.procs))
		rows = append(rows, WarnRow{Template: t, Text: g.text, Where: g.where, Count: g.n, First: g.first, Last: g.last, Ranks: ranks, Hosts: hosts})
	}
	slices.SortStableFunc(rows, func(a, b WarnRow) int { return cmp.Compare(b.Count, a.Count) })
	return rows
}

// resultNames are ncclResult_t's values as `file:line -> N` prints them.
var resultNames = [...]string{"Success", "UnhandledCudaError", "SystemError", "InternalError",
	"InvalidArgument", "InvalidUsage", "RemoteError", "InProgress", "Timeout"}

// ResultName names an ncclResult_t value.
func ResultName(r int64) string {
	if r >= 0 && r < int64(len(resultNames)) {
		return resultNames[r]
	}
	return fmt.Sprintf("result %d", r)
}

func (in *Info) errorRows() []ErrorRow {
	rows := make([]ErrorRow, 0, len(in.chains.order))
	for _, k := range in.chains.order {
		g := in.chains.groups[k]
		ranks, hosts := ranksHosts(in.procsOf(g.procs))
		rows = append(rows, ErrorRow{Warn: k.Warn, Where: k.Where, Result: k.Result, ResultName: ResultName(k.Result),
			Outermost: g.last, Chains: g.n, Frames: g.frames, Ranks: ranks, Hosts: hosts, Evidence: g.ev})
	}
	slices.SortStableFunc(rows, func(a, b ErrorRow) int {
		return cmp.Or(cmp.Compare(b.Chains, a.Chains), cmp.Compare(a.Evidence.File, b.Evidence.File), cmp.Compare(a.Evidence.Line, b.Evidence.Line))
	})
	return rows
}

// missing says which sections of NCCL_DEBUG_SUBSYS the log lacks, when it has NCCL lines.
func (in *Info) missing() []MissingRow {
	c := in.counts
	if c.NCCL == 0 && len(in.bare) == 0 {
		return []MissingRow{{Lines: "NCCL", Add: "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,COLL,NET,ENV,TUNING",
			Disables: "everything: the input holds no NCCL debug output"}}
	}
	var rows []MissingRow
	for _, m := range []struct {
		n   int64
		row MissingRow
	}{
		{c.Init, MissingRow{"INIT", "INIT in NCCL_DEBUG_SUBSYS (the default before it is set)",
			"communicators, ranks, GPUs, connections and init timings; processes are named by host:pid only"}},
		{c.Net, MissingRow{"NET", "INIT,NET in NCCL_DEBUG_SUBSYS",
			"which network and NICs each rank uses (IB, RoCE or sockets)"}},
		{c.Env, MissingRow{"ENV", "ENV in NCCL_DEBUG_SUBSYS (default from 2.16)",
			"the environment variables each rank set, and their comparison across ranks"}},
		{c.Tuning, MissingRow{"TUNING", "TUNING in NCCL_DEBUG_SUBSYS (2.20+; rank 0 of each communicator prints it)",
			"the algorithm and protocol per op and size"}},
		{c.Coll, MissingRow{"COLL", "COLL in NCCL_DEBUG_SUBSYS",
			"ops, sizes, datatypes and steps (report, stats, hist, agg, calls), the ranks' call order (ranks, hang, check), and info's comparison of the number of communicators per process, which needs the log to show the job past its init"}},
	} {
		if m.n == 0 {
			rows = append(rows, m.row)
		}
	}
	return rows
}

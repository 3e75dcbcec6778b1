package info

import (
	"fmt"
	"strings"

	"github.com/nccllog/nccllog/parser"
)

// commInfo is what the ranks of one communicator printed about it. Its count maps are made
// on their first entry: most communicators of a job with many have no layout, channel, ring
// or link line, and a million empty maps are most of a gigabyte.
type commInfo struct {
	key      string
	nranks   int64
	inits    int64 // its Init lines
	ranks    map[int64]commRank
	layout   map[string]int64 // "nNodes 2 localRanks 8" -> ranks that printed it
	channels map[string]int64
	rings    map[string]int64
	links    map[linkClass]int64
}

// commRank is one rank of a communicator: its process, and which of its Init lines the log
// holds.
type commRank struct {
	proc              procID
	started, complete bool
}

// unfinished is a rank that printed Init START and, in the log, no Init COMPLETE.
func (r commRank) unfinished() bool { return r.started && !r.complete }

// linkClass is a transport as connection lines name it, and whether it is a network one.
type linkClass struct {
	Transport string
	Net       bool
}

// commFact is a line that belongs to the communicator its thread is initialising.
type commFact struct {
	thread threadKey
	name   string // "channels", "rings", "layout", "link"
	value  string
	net    bool // a link over the network
	ev     Evidence
	// after and next place a line whose thread had printed no Init START in this Info: after
	// is the thread's latest Init line here before it ("" where none), next the Init
	// COMPLETE that followed it here ("" where none yet). If the thread printed START before
	// this Info's lines, the line belongs to after (2.18.3+); if it never did, to next. Only
	// a Merge, or the end of the lines, tells which.
	after, next string
}

// commKeyOf names a communicator the same way on every rank: its commId (2.16+); for a
// split without one (2.23+), its color and size; before 2.16, its size.
func commKeyOf(c *parser.CommEvent) string {
	switch {
	case c.CommID != 0:
		return fmt.Sprintf("0x%x", c.CommID)
	case c.Parent != 0:
		return fmt.Sprintf("split color %d nranks %d", c.Color, c.NRanks)
	}
	return fmt.Sprintf("nranks %d", c.NRanks)
}

// comm is the communicator key, made where it is new; nil where it is new and maxComms are
// listed already.
func (in *Info) comm(key string) *commInfo {
	c := in.comms[key]
	if c == nil && len(in.comms) >= in.maxComms {
		return nil
	}
	if c == nil {
		c = &commInfo{key: key, ranks: make(map[int64]commRank, 1)}
		in.comms[key] = c
		in.commOrder = append(in.commOrder, key)
	}
	return c
}

// addComm reads a communicator line: Init lines bind the thread to the communicator and name
// the process's rank and GPU; the layout line is the communicator's node layout.
func (in *Info) addComm(l *parser.Line, ev Evidence) {
	p := in.proc(l, ev)
	c := &l.Comm
	th := threadKey{p.key, l.Env.Tid}
	if c.Event == parser.EventLayout {
		in.commLine(commFact{thread: th, name: "layout", value: fmt.Sprintf("nNodes %d localRanks %d", c.NNodes, c.LocalRks), ev: ev})
		return
	}
	if !strings.HasPrefix(c.Event, "Init") {
		return
	}
	key := commKeyOf(c)
	in.bindInit(th, key, c.Event == "Init START")
	if ci := in.comm(key); ci != nil {
		if c.NRanks > 0 { // as merge does: a line that reads 0 (NCCL prints none) keeps the size
			ci.nranks = c.NRanks
		}
		r := ci.ranks[c.Rank]
		r.proc = p.key
		r.started = r.started || c.Event == "Init START"
		r.complete = r.complete || c.Event == "Init COMPLETE"
		// Its own line, not the rank's state: another process (a second job, a damaged host
		// name) may have completed the same rank, and which lines a chunk saw first must
		// not decide this.
		p.initDone = p.initDone || c.Event == "Init COMPLETE"
		ci.ranks[c.Rank] = r
		ci.inits++
		p.comms.add(key)
	} else {
		in.notListed++
	}
	g := GPU{CudaDev: c.CudaDev, NvmlDev: c.NvmlDev}
	if c.BusID != 0 { // 2.4 prints no busId
		g.BusID = fmt.Sprintf("%x", c.BusID)
	}
	p.gpus.add(g)
	p.addRank(c.Rank, c.NRanks)
}

// addConn reads a connection line. A NET link prints on both sides; it is counted once, by
// its [send] line. The process's transports are facts compared across ranks. Connections
// for send/recv (connection index 1) are made on first use, between the peers that talk
// (pipeline stages, for one): they differ from rank to rank by design and are left out.
func (in *Info) addConn(th threadKey, c *parser.Conn, ev Evidence) {
	p := in.procs[th.procID]
	if c.Index == 1 {
		return
	}
	name := "intra-node transport"
	if c.Net {
		name = "inter-node transport"
	}
	p.set(name, c.Transport, ev)
	if c.Dir == "receive" {
		p.linkRanks.add(c.To)
	} else {
		p.linkRanks.add(c.From)
	}
	if c.Dir == "receive" || c.To < 0 {
		return
	}
	in.commLine(commFact{thread: th, name: "link", value: c.Transport, net: c.Net, ev: ev})
}

func (in *Info) applyComm(key string, f *commFact) {
	c := in.comm(key)
	if c == nil {
		return // a communicator past the cap: not listed
	}
	switch f.name {
	case "link":
		bump(&c.links, linkClass{f.value, f.net}, 1)
		return
	case "layout":
		bump(&c.layout, f.value, 1)
	case "channels":
		bump(&c.channels, f.value, 1)
	case "rings":
		bump(&c.rings, f.value, 1)
	}
	if p := in.procs[f.thread.procID]; p != nil && f.name != "layout" {
		p.set("comm "+key+" "+f.name, f.value, f.ev)
	}
}

func (c *commInfo) merge(o *commInfo) {
	if o.nranks > 0 {
		c.nranks = o.nranks
	}
	c.inits += o.inits
	for rank, or := range o.ranks {
		r := c.ranks[rank]
		r.proc = or.proc
		r.started, r.complete = r.started || or.started, r.complete || or.complete
		c.ranks[rank] = r
	}
	addCounts(&c.layout, o.layout)
	addCounts(&c.channels, o.channels)
	addCounts(&c.rings, o.rings)
	addCounts(&c.links, o.links)
}

// addCounts adds src's counts to *dst, making it where it is nil.
func addCounts[K comparable](dst *map[K]int64, src map[K]int64) {
	for k, n := range src {
		bump(dst, k, n)
	}
}

// bump adds n to k's count in *m, making the map on its first entry.
func bump[K comparable](m *map[K]int64, k K, n int64) {
	if *m == nil {
		*m = make(map[K]int64)
	}
	(*m)[k] += n
}

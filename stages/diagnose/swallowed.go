package diagnose

import (
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// NCCL prints a chain's frames as an error returns through NCCLCHECK, each caller's right
// after its callee's on the same thread. A chain whose thread goes on with a line of another
// kind was not passed up: NCCL took the error and went on, as a probe that falls back does.
//
//	sfr-pod-rmeng:435:783 [0] NCCL INFO Could not find real path of /sys/class/net/eth0/device
//	sfr-pod-rmeng:435:783 [0] NCCL INFO include/net.h:19 -> 2
//	sfr-pod-rmeng:435:783 [0] NCCL INFO Ring 00 : 0 -> 8 [receive] via NET/Socket/0
//
// RCCL's `transport/net_ib.cc:652 -> 2` before `Using network IB` is another. Such a chain,
// whose WARN the log does not show, is no error of the job's (Build drops it from the
// chains without their WARN). A chain that reaches NCCL's API (apiFiles) returned its error
// to the program, whatever the thread printed next; a WARN after the frame is the thread's
// report of it, not a line that goes on.

// openFrame is the last frame a Part kept, until its thread prints its next line.
type openFrame struct {
	ok       bool
	i        int // its index in Part.items
	host     string
	pid, tid int64
}

// frameKept notes the frame just kept (the last of p.items) as open.
func (p *Part) frameKept(l *parser.Line) {
	p.open = openFrame{ok: true, i: len(p.items) - 1, host: l.Env.Host, pid: l.Env.Pid, tid: l.Env.Tid}
}

// threadGoesOn reads a line of the open frame's process other than a frame: an INFO line of
// its thread marks the frame as one whose chain NCCL did not pass up; a WARN of it closes the
// frame unmarked.
func (p *Part) threadGoesOn(l *parser.Line, info bool) {
	o := &p.open
	if l.Env.Tid != o.tid || l.Env.Pid != o.pid || l.Env.Host != o.host {
		return
	}
	if info && o.i < len(p.items) {
		p.items[o.i].Swallowed = true
	}
	o.ok = false
}

// unswallowed is bare, the frames of chains without their WARN, less the chains NCCL did
// not pass up: each thread's frames since its last chain, up to a frame its thread went on
// from (Item.Swallowed) below NCCL's API. A chain its thread went on from at an API frame
// returned its error to the program, and one its thread printed nothing after is open:
// both stay.
func unswallowed(items []Item, bare []int) []int {
	chain := map[threadKey][]int{}
	kept := make([]int, 0, len(bare))
	for _, i := range bare {
		it := &items[i]
		th := threadKey{it.Host, it.Pid, it.Tid}
		switch {
		case !it.Swallowed:
			chain[th] = append(chain[th], i)
		case apiFrame(it.Name):
			kept = append(append(kept, chain[th]...), i)
			chain[th] = nil
		default:
			chain[th] = nil
		}
	}
	for _, c := range chain {
		kept = append(kept, c...)
	}
	slices.Sort(kept)
	return kept
}

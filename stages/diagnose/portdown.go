package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/ranks"
)

// NET/IB's async thread prints every event of a device NCCL opened, port events included:
//
//	node48:34050:34121 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error
//	node48:34050:34121 [0] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_0:1 Got async event : port error
//	node48:34050:34121 [0] transport/net_ib.cc:199 NCCL WARN NET/IB : mlx5_0:1 Got async error event: port error
//
// (2.18 and before, 2.19-2.22, 2.23 and later). NCCL takes no action on a port event, and a
// link that flaps comes back with `port active`, which healthy jobs print too. A port that
// went down and did not come back is the host's link lost: the connections through it fail
// (a peer's completions end with status 12, retry exceeded, naming that host), and it is
// that host's network fault. A `port error` is read so where no `port active` of the same
// host (and device, where both name one) follows it in the log, its process issued no
// collective call after it (a job that went on calling through a lost port would say so in
// its other lines: a timeout, a failed completion), and it is not one process's alone among
// several the log shows on its host (seenAlone).

const (
	portDownWord = ": port error"
	portUpWord   = ": port active"
)

// portEvent reports whether it is a NET/IB port event, up (port active) or down (port error),
// and the device and port it names ("" where the line names none).
func portEvent(it *Item) (dev string, up, ok bool) {
	if it.Ev != evNetWeak {
		return "", false, false
	}
	t := strings.TrimRight(it.Text, " \r")
	switch {
	case strings.HasSuffix(t, portDownWord):
	case strings.HasSuffix(t, portUpWord):
		up = true
	default:
		return "", false, false
	}
	return portDev(t), up, true
}

// portDev is the `mlx5_0:1` of a port event's text, "" where it names none.
func portDev(t string) string {
	const head = "NET/IB : "
	i := strings.Index(t, head)
	if i < 0 {
		return ""
	}
	rest := t[i+len(head):]
	dev, _, ok := strings.Cut(rest, " Got async")
	if !ok || dev == "" || strings.ContainsAny(dev, " \t") || !strings.Contains(dev, ":") {
		return ""
	}
	return dev
}

// portsDown marks the port errors among items that no port active of their host follows.
// A port active in another file follows a port error where the two lines' times say so, and
// where either has no time it is taken to (a link that may have come back is no fault). A log
// of more than maxPortEvents port events of either sort (a fabric that flaps all day) makes no
// claim: its other lines decide.
func portsDown(items []Item) []bool {
	var downs, ups []portRef
	for i := range items {
		if dev, up, ok := portEvent(&items[i]); ok && up {
			ups = append(ups, portRef{i, dev})
		} else if ok {
			downs = append(downs, portRef{i, dev})
		}
	}
	if len(downs) == 0 || len(downs) > maxPortEvents || len(ups) > maxPortEvents {
		return nil
	}
	out := make([]bool, len(items))
	for _, d := range downs {
		out[d.pos] = !cameBack(items, d, ups)
	}
	return out
}

// maxPortEvents bounds the port events portsDown weighs against each other.
const maxPortEvents = 4096

// portRef is a port event: its item's place and the device it names.
type portRef struct {
	pos int
	dev string
}

// cameBack reports whether one of the port active events ups follows the port error d on its
// host and device.
func cameBack(items []Item, d portRef, ups []portRef) bool {
	di := &items[d.pos]
	for _, u := range ups {
		ui := &items[u.pos]
		if ui.Host != di.Host || d.dev != "" && u.dev != "" && u.dev != d.dev {
			continue
		}
		if ui.File == di.File {
			if ui.Line > di.Line {
				return true
			}
			continue
		}
		if less, ok := timeOrder(ui.Time.Stamp, di.Time.Stamp); !ok || !less {
			return true
		}
	}
	return false
}

// portDownSummary is the sentence of a port that went down, where c's evidence is port errors
// only (of one host); "" otherwise.
func portDownSummary(c *cand, after string) string {
	host := ""
	for i, it := range c.items {
		if _, up, ok := portEvent(it); !ok || up || i > 0 && it.Host != host {
			return ""
		}
		host = it.Host
	}
	if len(c.items) == 0 {
		return ""
	}
	port := "an InfiniBand port"
	if dev := portDev(strings.TrimRight(c.items[0].Text, " \r")); dev != "" {
		port = "InfiniBand port " + dev
	}
	lost := who(c) + " lost " + port + " first" + after
	if n := len(c.procs); n > 1 && host != "" {
		lost = "Host " + host + " lost " + port + " first" + after + fmt.Sprintf(" (its %d processes each printed it)", n)
	}
	return lost + ": NET/IB printed `port error` and no `port active` follows in the log, so the link stayed down; connections through it fail."
}

// endedBefore reports whether every communicator of p the log shows was destroyed or aborted
// before it, in its file: a port that goes down once the job is done with NCCL (a node's
// shutdown) is no fault of the job's.
func (b *builder) endedBefore(p *proc, it *Item) bool {
	cs := b.commsOf(p)
	for _, c := range cs {
		if !markBefore(c.Abort, it) && !markBefore(c.Destroy, it) {
			return false
		}
	}
	return len(cs) > 0
}

// markBefore reports whether m is a line of it's file above it.
func markBefore(m *Mark, it *Item) bool { return m != nil && m.File == it.File && m.Line < it.Line }

// seenAlone clears the port errors of a host where the log shows several of its processes and
// only one printed one: every process NCCL runs on a host opens its NICs and hears their
// ports' events (36/08's eight processes each printed the error), so one process's error
// among several is no port the host lost, and a cut right after a healthy job's stray WARN
// must not read as one.
func seenAlone(items []Item, down []bool, x *procIndex) {
	pids := map[string][]int64{}
	for i, d := range down {
		if it := &items[i]; d && !slices.Contains(pids[it.Host], it.Pid) {
			pids[it.Host] = append(pids[it.Host], it.Pid)
		}
	}
	shown := x.onHosts()
	alone := map[string]bool{}
	for host, ps := range pids {
		alone[host] = len(ps) == 1 && shown[host] > 1
	}
	for i, d := range down {
		if d && alone[items[i].Host] {
			down[i] = false
		}
	}
}

// keptCalling clears the port errors of down after which their process issued a collective
// call, in the same file (the ranks family's calls).
func keptCalling(set *stages.Set, items []Item, down []bool) {
	if _, ok := stages.Part[*ranks.RanksPart](set); !ok {
		return
	}
	r := ranks.RanksOf(set)
	if !r.Called() {
		return
	}
	for i, d := range down {
		if it := &items[i]; d && r.LastCallLine(it.File, it.Host, it.Pid) > it.Line {
			down[i] = false
		}
	}
}

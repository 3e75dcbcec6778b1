package ranks

import (
	"time"

	"github.com/nccllog/nccllog/parser"
)

// A rank behind the others whose calls stopped long before the log's later lines (its own,
// its host's, the watchdog's) is a stall: the job went on printing while it issued nothing.
// One whose calls run to within a few of its usual gaps of the log's end is a cut: a log
// taken while the job still ran (or cut short) ends that way too, and no hang is claimed.

const (
	// stallFloor is the least time a rank's calls must have stopped before the log's later
	// lines to be a stall: a step of a healthy job (forward, backward, a data load) can keep
	// its calls apart for seconds, and PyTorch's watchdog waits ten minutes by default, so a
	// real stall is far longer.
	stallFloor = int64(30 * time.Second)
	// stallGaps is how many of its usual gaps a stall must also be: a job whose calls come a
	// minute apart is not stalled after two.
	stallGaps = 10
	// cutGaps is how many of its usual gaps a rank's last call may be from the log's end for
	// the log to look cut there: the ranks ahead issued a few calls more in that time.
	cutGaps = 10
	// cutMost is the most a rank's last call may be from the log's end for the log to look
	// cut there, however slow its calls: a stall is at least stallFloor, and hosts' clocks
	// that agree may still read skewTolerance apart (cutEnd does not allow for it).
	cutMost = stallFloor - skewTolerance
	// skewTolerance is how far apart hosts' clocks may read the same call (ranks of one
	// communicator at the same call, their first) before their times are not compared: first
	// calls after an Init arrive within a second or so; more is a clock (or zone) apart.
	skewTolerance = int64(10 * time.Second)
)

// StallKind is what the times say of a rank behind.
type StallKind uint8

const (
	StallUnknown StallKind = iota // the times do not tell (none, or they do not compare)
	StallCut                      // its calls run to the log's end: the log looks cut
	Stalled                       // its calls stopped long before the log's later lines
)

// Stall is what the times say of a rank's calls against the log's later lines.
type Stall struct {
	Kind StallKind
	// LastCall is the time of its process's last call; End the latest line's that compares
	// with it (Stalled: the later line's; StallCut: the log's end); Gap the usual gap between
	// its process's calls (ns), 0 where it had fewer than two timed calls.
	LastCall, End parser.Stamp
	Gap           int64
}

// Since is how long before End its calls stopped.
func (s Stall) Since() int64 { d, _ := since(s.LastCall, s.End); return d }

// stallCtx is what a rank's times are judged against, built once per Hang: the latest time
// of each class per host (the lines of its processes, and the watchdog lines of files of
// that host only), over every host, and the files' last lines; and whether the hosts'
// clocks compare.
type stallCtx struct {
	hosts   map[string]*latest
	all     latest
	files   []*FileClock
	skew    int64 // the most the hosts' clocks read one call apart
	apart   bool  // hosts' clocks disagree by more than skewTolerance
	anyTime bool
	// untimed: some file's lines carry no time, so where the log ends is not known.
	untimed bool
}

func (r *Ranks) newStallCtx(gs []*Group) *stallCtx {
	c := &stallCtx{hosts: map[string]*latest{}}
	for _, f := range r.files {
		if !f.Timed {
			c.untimed = true
			continue
		}
		c.anyTime = true
		c.files = append(c.files, f)
		for _, s := range f.Loose {
			c.all.add(s.Stamp)
			if f.Hosts == 1 {
				c.host(f.Host).add(s.Stamp)
			}
		}
	}
	if !c.anyTime {
		return c
	}
	for _, g := range gs {
		for _, m := range g.Members {
			if k := m.Clock; k != nil {
				c.host(m.Host).add(k.LastLine.Stamp)
				c.host(m.Host).add(k.LastCall.Stamp)
				c.all.add(k.LastLine.Stamp)
				c.all.add(k.LastCall.Stamp)
			}
		}
		c.skew = max(c.skew, firstSkew(g))
	}
	c.apart = c.skew > skewTolerance
	return c
}

func (c *stallCtx) host(h string) *latest {
	l := c.hosts[h]
	if l == nil {
		l = &latest{}
		c.hosts[h] = l
	}
	return l
}

// firstSkew is the most g's hosts' clocks read the first call of its ranks apart: per
// call that ranks start at, the earliest first call of each host against the other hosts'
// (the earliest, as ranks of one host arrive at a call spread out by their own work).
func firstSkew(g *Group) int64 {
	type at struct {
		start int64
		host  string
	}
	first := map[at]parser.Stamp{}
	for _, m := range g.Members {
		if m.Clock == nil || m.Clock.First.IsZero() {
			continue
		}
		k := at{m.Start, m.Host}
		if t, ok := first[k]; !ok || classOf(t) == classOf(m.Clock.First.Stamp) && m.Clock.First.Nanos < t.Nanos {
			first[k] = m.Clock.First.Stamp
		}
	}
	var worst int64
	for a, ta := range first {
		for b, tb := range first {
			if a.start != b.start || a.host >= b.host {
				continue
			}
			if d, ok := since(ta, tb); ok {
				worst = max(worst, d, -d)
			}
		}
	}
	return worst
}

// stallOf says what the times say of m's calls.
func (c *stallCtx) stallOf(m *Member) Stall {
	k := m.Clock
	if !c.anyTime || k == nil || k.LastCall.IsZero() {
		return Stall{}
	}
	s := Stall{LastCall: k.LastCall.Stamp, Gap: k.Gap}
	res := resolution(k.LastCall.Stamp)
	// The latest line that compares: its own, its host's, any host's where the clocks agree
	// (less what they may read apart).
	end, endAt := int64(-1), parser.Stamp{}
	take := func(t parser.Stamp, less int64) {
		if d, ok := since(k.LastCall.Stamp, t); ok && d-less > end {
			end, endAt = d-less, t
		}
	}
	take(k.LastLine.Stamp, 0)
	for _, t := range c.hosts[m.Host] {
		take(t.Stamp, 0)
	}
	if !c.apart {
		for _, t := range c.all {
			take(t.Stamp, c.skew)
		}
	}
	if end > max(stallFloor, stallGaps*k.Gap)+res {
		s.Kind, s.End = Stalled, endAt
		return s
	}
	if at, d, ok := c.cutEnd(m); ok && k.Gaps > 0 && d <= min(cutGaps*k.Gap+2*res, cutMost) {
		s.Kind, s.End = StallCut, at
	}
	return s
}

// cutEnd is the log's end as m's clock reads it: the latest of the files' last lines, where
// every file's last line has a time that compares with m's (another host's only where the
// clocks agree); ok false otherwise, when the end is not known.
func (c *stallCtx) cutEnd(m *Member) (parser.Stamp, int64, bool) {
	var end parser.Stamp
	var endD int64
	if c.untimed {
		return end, 0, false
	}
	for _, f := range c.files {
		if f.Last.IsZero() || c.apart && (f.Hosts != 1 || f.Host != m.Host) {
			return parser.Stamp{}, 0, false
		}
		d, ok := since(m.Clock.LastCall.Stamp, f.Last.Stamp)
		if !ok {
			return parser.Stamp{}, 0, false
		}
		if end.IsZero() || d > endD {
			end, endD = f.Last.Stamp, d
		}
	}
	return end, endD, !end.IsZero()
}

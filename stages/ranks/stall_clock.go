package ranks

import (
	"cmp"
	"math/bits"
	"slices"
	"time"

	"github.com/nccllog/nccllog/parser"
)

// The times stall judges by. A line's time is its wall time as the log printed it
// (parser.Stamp); two compare where parser says they may: both zoned (read as UTC) or both
// read off a host's local clock, a form without a year put in the year of the other nearest
// it. A TRACE line's time since its process's init is no wall time and is left out.

// wallTime is s where it is a wall time, else the zero Stamp.
func wallTime(s parser.Stamp) parser.Stamp {
	if s.Form == parser.StampTrace {
		return parser.Stamp{}
	}
	return s
}

// yearNs is the length of the year 2000, in which a time without a year is read.
const yearNs = int64(366 * 24 * time.Hour)

// since returns b - a in nanoseconds, and whether the two times compare.
func since(a, b parser.Stamp) (int64, bool) {
	if a.IsZero() || b.IsZero() || a.Zoned != b.Zoned {
		return 0, false
	}
	switch {
	case a.HasYear() && !b.HasYear():
		return inYearOf(b.Nanos, a.Nanos) - a.Nanos, true
	case !a.HasYear() && b.HasYear():
		return b.Nanos - inYearOf(a.Nanos, b.Nanos), true
	}
	d := b.Nanos - a.Nanos
	if !a.HasYear() && d < -yearNs/2 {
		d += yearNs // both read in 2000: b is in the next year (a log over New Year)
	}
	return d, true
}

// inYearOf puts n, a time read in the year 2000, in the year (of ref's, or one either side)
// that brings it nearest ref.
func inYearOf(n, ref int64) int64 {
	t, r := time.Unix(0, n).UTC(), time.Unix(0, ref).UTC()
	best, bestD := n, int64(-1)
	for y := r.Year() - 1; y <= r.Year()+1; y++ {
		v := time.Date(y, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC).UnixNano()
		if d := max(v-ref, ref-v); bestD < 0 || d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// resolution is how far apart two readings of s's precision may be for the same moment.
func resolution(s parser.Stamp) int64 {
	r := int64(time.Second)
	for range min(int(s.Digits), 9) {
		r /= 10
	}
	return r
}

// later reports whether b is later than a where both are of one class (zoned or not, with a
// year or not), the way a latest time of each class is kept.
func later(a, b parser.Stamp) bool { return a.IsZero() || b.Nanos > a.Nanos }

// classOf numbers the classes of times whose readings are kept apart: zoned or not, with a
// year or not.
func classOf(s parser.Stamp) int {
	c := 0
	if s.Zoned {
		c += 2
	}
	if s.HasYear() {
		c++
	}
	return c
}

// latest is the latest time of each class.
type latest [4]At

func (l *latest) add(s parser.Stamp) {
	if s.IsZero() {
		return
	}
	if c := classOf(s); later(l[c].Stamp, s) {
		l[c] = At{Stamp: s}
	}
}

// gapBuckets is how many buckets gapHist has: one for gaps under a microsecond, then four
// a doubling from 1 µs to 2^40 µs (twelve days), the last holding anything longer.
const gapBuckets = 1 + 4*40

// gapHist counts a process's gaps between consecutive calls in buckets a quarter doubling
// wide: its median is within a fifth of the true one, in a fixed few hundred bytes, and the
// same however the calls were read (a process's calls are folded in order).
type gapHist struct {
	n      int64
	counts *[gapBuckets]uint32 // nil until the first gap
}

func gapBucket(ns int64) int {
	us := uint64(ns / 1000)
	if us == 0 {
		return 0
	}
	k := bits.Len64(us) - 1 // 2^k <= us < 2^(k+1)
	sub := 0
	if k >= 2 {
		sub = int(us>>(k-2)) & 3
	} else {
		sub = int(us<<(2-k)) & 3
	}
	return min(1+4*k+sub, gapBuckets-1)
}

// bucketMid is the middle of bucket i, in nanoseconds.
func bucketMid(i int) int64 {
	if i == 0 {
		return 0
	}
	k, sub := (i-1)/4, (i-1)%4
	lo := float64(int64(1)<<k) * (1 + float64(sub)/4)
	return int64(lo * (1 + 1.0/8) * 1000)
}

func (h *gapHist) add(ns int64) {
	if h.counts == nil {
		h.counts = new([gapBuckets]uint32)
	}
	if i := gapBucket(ns); h.counts[i] < ^uint32(0) {
		h.counts[i]++
		h.n++
	}
}

// median is the middle of the bucket that holds the median gap; ok false without a gap.
func (h *gapHist) median() (int64, bool) {
	if h.n == 0 {
		return 0, false
	}
	var seen int64
	for i, c := range h.counts {
		if seen += int64(c); 2*seen >= h.n {
			return bucketMid(i), true
		}
	}
	return 0, false
}

// procClock is what a process's times say: its last call's, the gaps between its calls, and
// its last line's (of the lines ranks reads: calls, communicator lines, WARNs).
type procClock struct {
	lastCall, lastLine parser.Stamp
	gaps               gapHist
}

func (c *procClock) call(s parser.Stamp) {
	if s.IsZero() {
		return
	}
	if d, ok := since(c.lastCall, s); ok && d >= 0 {
		c.gaps.add(d)
	}
	c.lastCall = s
}

func (c *procClock) line(s parser.Stamp) {
	if !s.IsZero() {
		c.lastLine = s
	}
}

// give puts the process's times on m, one of its ranks; where its calls carry no time, m
// keeps what it has (a partial result's).
func (c *procClock) give(m *Member) {
	if c.lastCall.IsZero() {
		return
	}
	if m.Clock == nil {
		m.Clock = &Clock{}
	}
	m.Clock.LastCall, m.Clock.LastLine = At{Stamp: c.lastCall}, At{Stamp: c.lastLine}
	m.Clock.Gap, m.Clock.Gaps = 0, c.gaps.n
	if g, ok := c.gaps.median(); ok {
		m.Clock.Gap = g
	}
}

// Clock is what a rank's times say: the time of its first call on the communicator, of its
// process's last call (on any communicator) and last line, and the median gap between its
// process's calls (Gap, over Gaps gaps).
type Clock struct {
	First, LastCall, LastLine At
	Gap, Gaps                 int64
}

// firstAt notes the time of m's first call.
func (m *Member) firstAt(s parser.Stamp) {
	if m.Calls != 1 || s.IsZero() {
		return
	}
	if m.Clock == nil {
		m.Clock = &Clock{}
	}
	m.Clock.First = At{Stamp: s}
}

// FileClock is what the times of one input file's lines say: its last line's (zero where
// that line has none), the latest of its lines without an NCCL envelope (watchdog lines),
// and its hosts: Host where every line with an envelope is of one, else Hosts is more than 1.
type FileClock struct {
	File  string
	Last  At     `json:",omitzero"`
	Loose latest `json:",omitzero"`
	Host  string `json:",omitempty"`
	Hosts int    `json:",omitempty"`
	// Timed: some line of the file has a wall time (files without are not kept in a
	// snapshot).
	Timed bool `json:",omitempty"`
}

// fileClock notes the time of an event of file.
func (r *Ranks) fileClock(e *heldEvent) {
	file := e.file
	f := r.lastFile
	if f == nil || !sameBytes(f.File, file) && f.File != file {
		if r.files == nil {
			r.files = make(map[string]*FileClock)
		}
		if f = r.files[file]; f == nil {
			f = &FileClock{File: file}
			r.files[file] = f
		}
		r.lastFile = f
	}
	f.Last = e.time()
	f.Timed = f.Timed || !e.at.IsZero()
	if e.kind == parser.KindWatchdog || e.host == "" && (e.kind == parser.KindInfo || e.kind == parser.KindFailure) {
		f.Loose.add(e.at) // a line without an envelope (watchdog, failure): no process's
		return
	}
	switch {
	case f.Hosts == 0:
		f.Host, f.Hosts = e.host, 1
	case f.Hosts == 1 && e.host != f.Host:
		f.Host, f.Hosts = "", 2
	}
}

// fileClocks are the files whose lines carry times, in file order.
func (r *Ranks) fileClocks() []FileClock {
	var out []FileClock
	for _, f := range r.files {
		if f.Timed {
			out = append(out, *f)
		}
	}
	slices.SortFunc(out, func(a, b FileClock) int { return cmp.Compare(a.File, b.File) })
	return out
}

// putFile keeps f as its file's times.
func (r *Ranks) putFile(f FileClock) {
	if r.files == nil {
		r.files = make(map[string]*FileClock)
	}
	r.files[f.File] = &f
	r.lastFile = nil
}

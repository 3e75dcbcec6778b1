package strag

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// MinLagMs is the smallest median lag a step must show to count as late, whatever the noise:
// below it, jitter of compute and launch is no straggler.
const MinLagMs = 10

// noiseFactor times the typical lag (the median |lag| over every compared call) is the other
// floor of the late threshold.
const noiseFactor = 10

// minHostRanks is how many ranks of one host a position needs to be compared there: the
// median of two is their mean, which cannot tell which of them is late.
const minHostRanks = 3

// sample is one compared call of a process.
type sample struct {
	lagNs int64
	step  int64
	op    uint64 // the position's opCount, which places it where the run has no steps
	last  bool
}

// procKey names a rank by its process and CUDA device (a process may drive several GPUs,
// one rank each).
type procKey struct {
	Host string
	Pid  int64
	Dev  int64
}

// procStats is what a process's compared calls say; where is the largest communicator it
// was compared on.
type procStats struct {
	samples []sample
	rank    int64
	comm    uint64
	nranks  int64
}

// group is one communicator's call position.
type group struct {
	id      uint64
	opCount uint64
}

type member struct {
	proc  procKey
	id    uint64 // the communicator's commId
	rank  int64
	nr    int64
	ns    int64
	zoned bool
	step  int64
}

// Report builds the stragglers report.
func (p *StragPart) Report() StragglersReport {
	r, _ := p.build(false)
	return r
}

// ReportAndMap builds the stragglers report and the lag map of the same comparison.
func (p *StragPart) ReportAndMap() (StragglersReport, LagMap) { return p.build(true) }

// build is the report, and the lag map where withMap is set (an empty one else).
func (p *StragPart) build(withMap bool) (StragglersReport, LagMap) {
	r := StragglersReport{Stragglers: []Straggler{}, TimedCalls: p.Counts.Timed,
		UntimedCalls: p.Counts.Untimed + p.Counts.Coarse + p.Counts.SinceInit}
	var notes []string
	if p.Counts.Untimed > 0 && p.Counts.Timed+p.Counts.Coarse+p.Counts.SinceInit == 0 {
		notes = append(notes, "no call line carries a time (NCCL 2.26.3+ prints one with NCCL_DEBUG_TIMESTAMP_LEVELS=ALL and NCCL_DEBUG_TIMESTAMP_FORMAT=\"[%F %T.%6f] \")")
	}
	if p.Counts.Coarse > 0 {
		notes = append(notes, fmt.Sprintf("%d calls' times print fewer than %d fraction digits and are not compared", p.Counts.Coarse, MinDigits))
	}
	if p.Counts.SinceInit > 0 {
		notes = append(notes, fmt.Sprintf("%d calls carry only time since their process's init and are not compared", p.Counts.SinceInit))
	}
	if p.commOver {
		notes = append(notes, fmt.Sprintf("more than %d communicator pointers: nothing compared", MaxComms))
		r.Note = strings.Join(notes, "; ")
		return r, LagMap{}
	}
	stats, offsets, compared := p.compare()
	r.Compared = compared
	if compared == 0 {
		if p.Counts.Timed > 0 {
			notes = append(notes, "no call position had 3 or more ranks of one host with times and known communicators")
		}
		r.Note = strings.Join(notes, "; ")
		return r, LagMap{}
	}
	thr := threshold(stats)
	if n := skewNote(offsets, thr); n != "" {
		notes = append(notes, n)
	}
	r.ThresholdMs = ms(thr)
	r.Stragglers = judge(stats, thr)
	r.Note = strings.Join(notes, "; ")
	if !withMap {
		return r, LagMap{}
	}
	return r, lagMap(stats, r.Stragglers)
}

// compare groups the sampled calls by communicator and position and compares each rank with
// the median of its host's ranks. It returns each process's samples, each host's clock
// offsets against the other hosts (per position compared), and how many positions it compared.
func (p *StragPart) compare() (map[procKey]*procStats, map[string][]int64, int) {
	stats := map[procKey]*procStats{}
	offsets := map[string][]int64{}
	compared := 0
	for _, pos := range p.sk.sorted() {
		for _, ms := range p.groups(pos) {
			if p.cfg != nil && p.cfg.Steps != nil && !p.cfg.Steps.Has(stepOf(ms)) {
				continue
			}
			if compareGroup(ms, pos.Key.OpCount, stats, offsets) {
				compared++
			}
		}
	}
	return stats, offsets, compared
}

// groups splits a position's calls by communicator (commId); a communicator whose position
// holds a rank twice is left out.
func (p *StragPart) groups(pos *Position) [][]member {
	by := map[group][]member{}
	var keys []group
	for _, a := range pos.Arrivals {
		c, ok := p.comms[procComm{a.Host, a.Pid, a.Comm}]
		if !ok || c.Ambiguous {
			continue
		}
		g := group{c.ID, pos.Key.OpCount}
		if _, seen := by[g]; !seen {
			keys = append(keys, g)
		}
		by[g] = append(by[g], member{procKey{a.Host, a.Pid, c.Dev}, c.ID, c.Rank, c.NRanks, a.Ns, a.Zoned, a.Step})
	}
	slices.SortFunc(keys, func(a, b group) int { return cmp.Compare(a.id, b.id) })
	out := make([][]member, 0, len(keys))
	for _, g := range keys {
		ms := by[g]
		slices.SortFunc(ms, func(a, b member) int { return cmp.Compare(a.rank, b.rank) })
		if dupRank(ms) {
			continue
		}
		out = append(out, ms)
	}
	return out
}

func dupRank(ms []member) bool {
	for i := 1; i < len(ms); i++ {
		if ms[i].rank == ms[i-1].rank {
			return true
		}
	}
	return false
}

// step is the position's step: the least settled step any of its calls has, -1 for none.
func stepOf(ms []member) int64 {
	s := int64(-1)
	for _, m := range ms {
		if m.step >= 0 && (s < 0 || m.step < s) {
			s = m.step
		}
	}
	return s
}

// compareGroup compares one communicator position's ranks (at opCount op) host by host (one clock each);
// it reports whether some host had enough ranks.
func compareGroup(ms []member, op uint64, stats map[procKey]*procStats, offsets map[string][]int64) bool {
	type clock struct {
		host  string
		zoned bool
	}
	by := map[clock][]member{}
	var clocks []clock
	for _, m := range ms {
		c := clock{m.proc.Host, m.zoned}
		if _, ok := by[c]; !ok {
			clocks = append(clocks, c)
		}
		by[c] = append(by[c], m)
	}
	step := stepOf(ms)
	seen := false
	medians := map[string]int64{}
	for _, c := range clocks {
		hm := by[c]
		if len(hm) < minHostRanks {
			continue
		}
		seen = true
		ts := make([]int64, len(hm))
		for i, m := range hm {
			ts[i] = m.ns
		}
		med := median(ts)
		medians[c.host] = med
		lastAt := slices.Max(ts)
		lasts := 0
		for _, t := range ts {
			if t == lastAt {
				lasts++
			}
		}
		for _, m := range hm {
			st := stats[m.proc]
			if st == nil {
				st = &procStats{rank: m.rank, nranks: -1}
				stats[m.proc] = st
			}
			if m.nr > st.nranks || m.nr == st.nranks && m.id < st.comm {
				st.rank, st.nranks, st.comm = m.rank, m.nr, m.id
			}
			st.samples = append(st.samples, sample{m.ns - med, step, op, m.ns == lastAt && lasts == 1})
		}
	}
	addOffsets(medians, offsets)
	return seen
}

// addOffsets records each host's median against the median of the hosts' medians.
func addOffsets(medians map[string]int64, offsets map[string][]int64) {
	if len(medians) < 2 {
		return
	}
	all := make([]int64, 0, len(medians))
	for _, m := range medians {
		all = append(all, m)
	}
	mid := median(all)
	for h, m := range medians {
		offsets[h] = append(offsets[h], m-mid)
	}
}

// median of ts (the mean of the middle two for an even count); ts is reordered.
func median(ts []int64) int64 {
	slices.Sort(ts)
	n := len(ts)
	if n%2 == 1 {
		return ts[n/2]
	}
	return ts[n/2-1] + (ts[n/2]-ts[n/2-1])/2
}

// quantile is the q-quantile of sorted vs (nearest rank).
func quantile(vs []int64, q float64) int64 {
	i := int(math.Ceil(q*float64(len(vs)))) - 1
	return vs[max(0, min(i, len(vs)-1))]
}

func ms(ns int64) float64 { return math.Round(float64(ns)/1e3) / 1e3 }

// skewNote says where hosts' clocks disagree by more than thr, the late threshold (by less,
// it is not told from the calls' own jitter).
func skewNote(offsets map[string][]int64, thr int64) string {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	var loH, hiH string
	for _, h := range sortedHosts(offsets) {
		o := median(offsets[h])
		if o < lo {
			lo, loH = o, h
		}
		if o > hi {
			hi, hiH = o, h
		}
	}
	if hi-lo <= thr {
		return ""
	}
	return fmt.Sprintf("hosts' clocks disagree by up to %.1f ms (%s ahead of %s): ranks are compared only with ranks of their own host",
		ms(hi-lo), hiH, loH)
}

func sortedHosts(m map[string][]int64) []string {
	hs := make([]string, 0, len(m))
	for h := range m {
		hs = append(hs, h)
	}
	slices.Sort(hs)
	return hs
}

// threshold is the lag a step's median must pass to be late: MinLagMs, or noiseFactor times
// the median |lag| over every compared call where that is more.
func threshold(stats map[procKey]*procStats) int64 {
	var abs []int64
	for _, st := range stats {
		for _, s := range st.samples {
			abs = append(abs, max(s.lagNs, -s.lagNs))
		}
	}
	if len(abs) == 0 {
		return MinLagMs * 1e6
	}
	return max(MinLagMs*1e6, noiseFactor*median(abs))
}

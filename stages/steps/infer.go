package steps

import (
	"cmp"
	"fmt"
	"slices"
)

// MinRepeats is how many whole repeats of the call pattern, each followed by the next one's
// first call, inference needs: fewer could be chance.
const MinRepeats = 3

// Why says why steps were or were not inferred from the calls.
type Why uint8

const (
	// WhyInferred: the steps were inferred.
	WhyInferred Why = iota
	// WhyNoCalls: no process issued a call (or more than MaxProcs did).
	WhyNoCalls
	// WhyUntimed: the call lines carry no time.
	WhyUntimed
	// WhySinceInit: the call lines carry only TRACE times (milliseconds since init).
	WhySinceInit
	// WhyCoarse: the call times have fewer than MinDigits fraction digits.
	WhyCoarse
	// WhyNoPattern: no call pattern repeats MinRepeats times over most of the calls.
	WhyNoPattern
)

// Pattern is the repeating call pattern steps were inferred from.
type Pattern struct {
	CallsPerStep int    `json:"calls_per_step"`
	Comm         string `json:"comm"`      // the reference process's main communicator
	Process      string `json:"process"`   // the reference process (host:pid)
	Processes    int    `json:"processes"` // processes whose times were taken
	WarmupCalls  int    `json:"warmup_calls"`
	// Truncated: some process's later steps are not listed: past MaxSteps, or calls past its
	// first KeptCalls that do not follow the pattern of those.
	Truncated bool `json:"truncated,omitempty"`
}

// InferredStep is one repeat of the pattern: its time is the median over the processes of
// the time from its first call to the next repeat's.
type InferredStep struct {
	Step      int64
	TimeS     float64
	Processes int64
}

// Inference is what the calls say of the steps.
type Inference struct {
	Why     Why
	Pattern Pattern
	Steps   []InferredStep
}

// procSeq is one usable process's main-communicator calls: signatures without the pointer
// (comparable across processes, root left out: a peer differs by rank) and times.
type procSeq struct {
	name string
	comm uint64
	keys []sigKey
	ns   []int64
	over bool
	tail *tailState
}

type sigKey struct {
	Op    string
	Count int64
	Dtype int64
}

// Infer finds the steps in p's calls where they repeat (see the README's steps section).
func (p *CallStepsPart) Infer() Inference {
	if p == nil || p.over || len(p.procs) == 0 {
		return Inference{Why: WhyNoCalls}
	}
	var seqs []procSeq
	var total TimeCounts
	for _, k := range sortedProcs(p.procs) {
		pc := p.procs[k]
		total.add(pc.TimeCounts)
		if pc.timed() && len(pc.calls) > 0 {
			seqs = append(seqs, mainSeq(k, pc))
		}
	}
	if len(seqs) == 0 {
		return Inference{Why: untimedWhy(total)}
	}
	return inferFrom(seqs)
}

func untimedWhy(t TimeCounts) Why {
	switch {
	case t.Calls == 0:
		return WhyNoCalls
	case t.Untimed > 0:
		return WhyUntimed
	case t.Coarse > 0:
		return WhyCoarse
	}
	return WhySinceInit
}

// mainSeq is pc's calls on its main communicator: the one it issued most calls on (of those
// kept; the lowest pointer of a tie).
func mainSeq(k procKey, pc *procCalls) procSeq {
	n := make(map[uint64]int)
	for _, c := range pc.calls {
		n[pc.sigs[c.sig].Comm]++
	}
	var comm uint64
	best := -1
	for c, m := range n {
		if m > best || m == best && c < comm {
			comm, best = c, m
		}
	}
	ps := procSeq{name: fmt.Sprintf("%s:%d", k.Host, k.Pid), comm: comm, over: pc.truncated(), tail: pc.tail}
	for _, c := range pc.calls {
		s := pc.sigs[c.sig]
		if s.Comm != comm {
			continue
		}
		ps.keys = append(ps.keys, sigKey{string(s.Op), s.Count, int64(s.Dtype)})
		ps.ns = append(ps.ns, c.ns)
	}
	return ps
}

// gram is the signatures of three calls in a row: the anchor a step is found by.
type gram [3]sigKey

// less orders grams by their calls' op, count and datatype.
func (g gram) less(o gram) bool {
	for i := range g {
		if c := cmp.Or(cmp.Compare(g[i].Op, o[i].Op), cmp.Compare(g[i].Count, o[i].Count), cmp.Compare(g[i].Dtype, o[i].Dtype)); c != 0 {
			return c < 0
		}
	}
	return false
}

// cand is a run of three calls that recurs as a step's anchor must: at least MinRepeats+1
// times, regularly (no gap between two more than half again the shortest, per) and over most
// of the calls (nccl-tests' sweep repeats each size over a part of them only).
type cand struct {
	g   gram
	per int
	pos []int
}

// cands lists keys' candidate anchors in order of first place.
func cands(keys []sigKey) []cand {
	at := make(map[gram][]int)
	var order []gram
	for i := 0; i+len(gram{}) <= len(keys); i++ {
		k := gram(keys[i : i+len(gram{})])
		if at[k] == nil {
			order = append(order, k)
		}
		at[k] = append(at[k], i)
	}
	var cs []cand
	for _, k := range order {
		if p, ok := recurs(at[k], len(keys)); ok {
			cs = append(cs, cand{k, p, at[k]})
		}
	}
	return cs
}

// recurs returns the shortest gap of pos, and whether pos recur as an anchor must over n calls.
func recurs(pos []int, n int) (per int, ok bool) {
	p, regular := gaps(pos)
	return p, regular && len(pos) >= MinRepeats+1 && 2*(pos[len(pos)-1]-pos[0]+p) > n
}

// anchor finds the step's anchor in keys: of the candidates (see cands), the one that recurs
// most often, the farthest apart and then the earliest of a tie (a call a loop makes every
// 10 steps recurs as regularly as the step does: it is not the step). per is its shortest
// gap, first its first place; ok is false where no run of calls qualifies.
func anchor(keys []sigKey) (g gram, per, first int, ok bool) {
	c, ok := pick(cands(keys))
	if !ok {
		return g, 0, 0, false
	}
	return c.g, c.per, c.pos[0], true
}

func pick(cs []cand) (best cand, ok bool) {
	for _, c := range cs {
		if len(c.pos) > len(best.pos) || len(c.pos) == len(best.pos) && c.per > best.per {
			best, ok = c, true
		}
	}
	return best, ok
}

// tailGram is the anchor the calls after a process's first KeptCalls are followed by: of the
// candidates that recur once between any two recurrences of anchor's, the one that starts
// the run of them each time (the first call after a step's varying end), the least of a tie;
// else the least of them. It is the same for any stretch of a steady loop, wherever the
// stretch starts (anchor's earliest is not), so that stretches of a log read apart agree on
// it; where the loop is entered at once it is anchor's.
func tailGram(keys []sigKey) (gram, bool) {
	cs := cands(keys)
	a, ok := pick(cs)
	if !ok {
		return gram{}, false
	}
	var steady []cand
	in := make(map[int]bool)
	for _, c := range cs {
		if once(a.pos, c.pos) {
			steady = append(steady, c)
			for _, p := range c.pos {
				in[p] = true
			}
		}
	}
	least, start := a.g, gram{}
	found := false
	for _, c := range steady {
		if c.g.less(least) {
			least = c.g
		}
		if starts(c.pos, in) && (!found || c.g.less(start)) {
			start, found = c.g, true
		}
	}
	if found {
		return start, true
	}
	return least, true
}

// starts reports whether no place of pos follows one of in.
func starts(pos []int, in map[int]bool) bool {
	for _, p := range pos {
		if in[p-1] {
			return false
		}
	}
	return true
}

// once reports whether between any two consecutive places of outer one of inner's lies.
func once(outer, inner []int) bool {
	j := 0
	for i := 1; i < len(outer); i++ {
		n := 0
		for ; j < len(inner) && inner[j] < outer[i]; j++ {
			if inner[j] >= outer[i-1] {
				n++
			}
		}
		if n != 1 {
			return false
		}
	}
	return true
}

// gaps returns the shortest distance between consecutive positions, and whether the
// longest is at most half again as long.
func gaps(pos []int) (shortest int, regular bool) {
	if len(pos) < 2 {
		return 0, false
	}
	lo, hi := pos[1]-pos[0], pos[1]-pos[0]
	for i := 2; i < len(pos); i++ {
		d := pos[i] - pos[i-1]
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, 2*hi <= 3*lo
}

// inferFrom takes the anchor of the process with the most main-communicator calls, and the
// steps' times over every process whose calls recur at it.
func inferFrom(seqs []procSeq) Inference {
	ref := slices.MaxFunc(seqs, func(a, b procSeq) int {
		return cmp.Or(cmp.Compare(len(a.keys), len(b.keys)), cmp.Compare(b.name, a.name))
	})
	g, per, first, ok := anchor(ref.keys)
	if !ok {
		return Inference{Why: WhyNoPattern}
	}
	inf := Inference{Pattern: Pattern{CallsPerStep: per, Comm: fmt.Sprintf("0x%x", ref.comm), Process: ref.name, WarmupCalls: first}}
	var durs [][]int64 // per step, every process's duration
	for _, s := range seqs {
		d, ok := durations(s, g)
		if !ok {
			continue
		}
		inf.Pattern.Processes++
		inf.Pattern.Truncated = inf.Pattern.Truncated || s.over
		for i, v := range d {
			if i == len(durs) {
				durs = append(durs, nil)
			}
			durs[i] = append(durs[i], v)
		}
	}
	for i, d := range durs {
		inf.Steps = append(inf.Steps, InferredStep{Step: int64(i + 1), TimeS: float64(median(d)) / 1e9, Processes: int64(len(d))})
	}
	return inf
}

// durations is the time from each recurrence of g on s to the next; ok where g recurs there
// as anchor requires.
func durations(s procSeq, g gram) ([]int64, bool) {
	var pos []int
	for i := 0; i+len(g) <= len(s.keys); i++ {
		if gram(s.keys[i:i+len(g)]) == g {
			pos = append(pos, i)
		}
	}
	if _, ok := recurs(pos, len(s.keys)); !ok {
		return nil, false
	}
	d := make([]int64, 0, len(pos)-1)
	for i := 1; i < len(pos); i++ {
		d = append(d, s.ns[pos[i]]-s.ns[pos[i-1]])
	}
	return append(d, tailDurations(s, pos[len(pos)-1])...), true
}

// median of d (the lower middle of an even count): one slow process does not move it.
func median(d []int64) int64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

package gen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Straggler kinds (Straggler.Kind).
const (
	StragglerChronic = "chronic" // late on every step
	StragglerOneOff  = "one-off" // late on one or two steps
)

// DefaultStragglerLag is how much later a straggler's calls are logged where its Lag is 0.
const DefaultStragglerLag = 40 * time.Millisecond

// DefaultArrivalJitter is the in-step arrival model's jitter where a straggler asks for the
// model and Config.ArrivalJitter is 0.
const DefaultArrivalJitter = 2 * time.Millisecond

// Straggler is a rank whose calls are logged Lag (DefaultStragglerLag where 0) later than its
// peers' on every step (Kind "chronic") or on one or two steps ("one-off").
type Straggler struct {
	Rank int
	Kind string
	Lag  time.Duration
}

// StragglerTruth is what a straggler made: the rank, where it runs, how late its calls were
// and on which steps.
type StragglerTruth struct {
	Rank  int
	Host  string
	PID   int
	Kind  string // StragglerChronic or StragglerOneOff
	Lag   time.Duration
	Steps []int // the steps whose calls were logged late, in order
}

// lateRank is one straggler as the arrival model runs it.
type lateRank struct {
	lagNs  int64
	oneOff map[int]bool // a one-off's late steps; nil for a chronic straggler
	steps  []int        // the steps made late so far
}

// arrival is the in-step arrival model (Config.ArrivalJitter): every rank logs the i-th call
// of a step's plan at the same moment, start + (i+0.5)/len(plan) of the step, give or take a
// jitter drawn from its own generator (so that the lines and their order are those of the
// same job without the model). A straggler's calls come its lag later on its late steps.
type arrival struct {
	rng      *rand.Rand
	jitterNs int64
	lastNs   []int64   // per process: the last time it printed, kept increasing
	at       [][]int64 // per process: the time of each event of the current step's queue
	cur      int64     // the time of the event being written; 0 outside a step
	late     map[int]*lateRank
}

// checkStragglers checks the straggler and arrival options.
func (c Config) checkStragglers() error {
	on := c.Timestamps != "" && c.Timestamps != "none"
	switch {
	case c.ArrivalJitter < 0:
		return errors.New("arrival jitter must not be negative")
	case c.ArrivalJitter > 0 && !on:
		return fmt.Errorf("arrival jitter %s needs timestamps", c.ArrivalJitter)
	case len(c.Stragglers) > 0 && !on:
		return errors.New("a straggler needs timestamps: its calls are late only in time")
	case len(c.Stragglers) > 0 && c.GPUsPerProcess > 1:
		return errors.New("a straggler is a process; leave GPUsPerProcess at 1")
	}
	seen := map[int]bool{}
	for _, s := range c.Stragglers {
		switch {
		case s.Rank < 0 || s.Rank >= c.Ranks:
			return fmt.Errorf("straggler rank %d is not a rank (want 0..%d)", s.Rank, c.Ranks-1)
		case seen[s.Rank]:
			return fmt.Errorf("straggler rank %d is given twice", s.Rank)
		case s.Kind != StragglerChronic && s.Kind != StragglerOneOff:
			return fmt.Errorf("unknown straggler kind %q (want %s or %s)", s.Kind, StragglerChronic, StragglerOneOff)
		case s.Lag < 0:
			return fmt.Errorf("straggler lag %s must not be negative", s.Lag)
		}
		seen[s.Rank] = true
	}
	return nil
}

// newArrival returns the arrival model of c, or nil where lines follow the interleaving clock.
func newArrival(c Config, procs int) *arrival {
	jitter := c.ArrivalJitter
	if jitter == 0 && len(c.Stragglers) > 0 {
		jitter = DefaultArrivalJitter
	}
	if jitter == 0 {
		return nil
	}
	a := &arrival{rng: rand.New(rand.NewPCG(uint64(c.Seed), pcgStream^0x61727276)), jitterNs: int64(jitter),
		lastNs: make([]int64, procs), at: make([][]int64, procs), late: map[int]*lateRank{}}
	for _, s := range c.Stragglers {
		l := &lateRank{lagNs: int64(s.Lag)}
		if l.lagNs == 0 {
			l.lagNs = int64(DefaultStragglerLag)
		}
		if s.Kind == StragglerOneOff {
			l.oneOff = oneOffSteps(c)
		}
		a.late[s.Rank] = l
	}
	return a
}

// oneOffSteps are a one-off straggler's late steps: the middle step of the run, and the one
// after it where the run has 20 steps or more (the 5th and 6th where Steps is not set).
func oneOffSteps(c Config) map[int]bool {
	mid := 5
	if c.Steps > 0 {
		mid = c.Steps / 2
	}
	m := map[int]bool{mid: true}
	if c.Steps == 0 || c.Steps >= 20 {
		m[mid+1] = true
	}
	return m
}

// lag is how late process r's calls of step are logged.
func (a *arrival) lag(r, step int) int64 {
	l := a.late[r]
	if l == nil || l.oneOff != nil && !l.oneOff[step] {
		return 0
	}
	return l.lagNs
}

// plan sets the time of every event of the step's queues: events after the i-th call of
// the plan share its moment (the clamp then keeps a process's times increasing).
func (a *arrival) plan(queues [][]event, step int, startMs, durMs int64) {
	n := int64(0)
	for _, e := range queues[0] {
		if e.kind == evColl {
			n++
		}
	}
	n = max(n, 1)
	for r, q := range queues {
		at := a.at[r][:0]
		slot, lag := int64(-1), a.lag(r, step)
		if lag > 0 {
			a.late[r].steps = append(a.late[r].steps, step)
		}
		var t int64
		for _, e := range q {
			if e.kind == evColl {
				slot++
				t = startMs*1e6 + durMs*1e6*(2*max(slot, 0)+1)/(2*n) + a.rng.Int64N(a.jitterNs) + lag
			}
			at = append(at, max(t, startMs*1e6))
		}
		a.at[r] = at
	}
}

// clamp keeps process r's times increasing: t, or a nanosecond after its last time.
func (a *arrival) clamp(r int, t int64) int64 {
	t = max(t, a.lastNs[r]+1)
	a.lastNs[r] = t
	return t
}

// stragglerTruth describes the stragglers of c, in c's order.
func (g *gen) stragglerTruth() []StragglerTruth {
	var out []StragglerTruth
	for _, s := range g.cfg.Stragglers {
		p, l := &g.topo.procs[s.Rank], g.arrive.late[s.Rank]
		out = append(out, StragglerTruth{Rank: s.Rank, Host: hostName(p.host), PID: p.pid, Kind: s.Kind,
			Lag: time.Duration(l.lagNs), Steps: append([]int(nil), l.steps...)})
	}
	return out
}

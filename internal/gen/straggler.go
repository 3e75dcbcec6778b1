package gen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Straggler kinds (Config.StragglerKind).
const (
	StragglerChronic = "chronic" // late on every step
	StragglerOneOff  = "one-off" // late on one or two steps
)

// DefaultStragglerLag is how much later the straggler's calls are logged where
// Config.StragglerLag is 0.
const DefaultStragglerLag = 40 * time.Millisecond

// DefaultArrivalJitter is the in-step arrival model's jitter where a straggler asks for the
// model and Config.ArrivalJitter is 0.
const DefaultArrivalJitter = 2 * time.Millisecond

// StragglerTruth is what the straggler option made: the rank, where it runs, how late its
// calls were and on which steps.
type StragglerTruth struct {
	Rank  int
	Host  string
	PID   int
	Kind  string // StragglerChronic or StragglerOneOff
	Lag   time.Duration
	Steps []int // the steps whose calls were logged late, in order
}

// arrival is the in-step arrival model (Config.ArrivalJitter): every rank logs the i-th call
// of a step's plan at the same moment, start + (i+0.5)/len(plan) of the step, give or take a
// jitter drawn from its own generator (so that the lines and their order are those of the
// same job without the model). The straggler's calls come lag later on its late steps.
type arrival struct {
	rng      *rand.Rand
	jitterNs int64
	lastNs   []int64   // per process: the last time it printed, kept increasing
	at       [][]int64 // per process: the time of each event of the current step's queue
	cur      int64     // the time of the event being written; 0 outside a step
	strag    int       // the straggler's process index, -1 for none
	lagNs    int64
	oneOff   map[int]bool // the one-off's late steps
	steps    []int        // the steps made late so far
}

// checkStraggler checks the straggler and arrival options.
func (c Config) checkStraggler() error {
	on := c.Timestamps != "" && c.Timestamps != "none"
	switch {
	case c.ArrivalJitter < 0 || c.StragglerLag < 0:
		return errors.New("arrival jitter and straggler lag must not be negative")
	case c.ArrivalJitter > 0 && !on:
		return fmt.Errorf("arrival jitter %s needs timestamps", c.ArrivalJitter)
	case c.StragglerRank == nil && (c.StragglerKind != "" || c.StragglerLag != 0):
		return errors.New("StragglerKind or StragglerLag is set but StragglerRank is not")
	case c.StragglerRank == nil:
		return nil
	case !on:
		return errors.New("a straggler needs timestamps: its calls are late only in time")
	case *c.StragglerRank < 0 || *c.StragglerRank >= c.Ranks:
		return fmt.Errorf("StragglerRank %d is not a rank (want 0..%d)", *c.StragglerRank, c.Ranks-1)
	case c.StragglerKind != StragglerChronic && c.StragglerKind != StragglerOneOff:
		return fmt.Errorf("unknown straggler kind %q (want %s or %s)", c.StragglerKind, StragglerChronic, StragglerOneOff)
	case c.GPUsPerProcess > 1:
		return errors.New("a straggler is a process; leave GPUsPerProcess at 1")
	}
	return nil
}

// newArrival returns the arrival model of c, or nil where lines follow the interleaving clock.
func newArrival(c Config, procs int) *arrival {
	jitter := c.ArrivalJitter
	if jitter == 0 && c.StragglerRank != nil {
		jitter = DefaultArrivalJitter
	}
	if jitter == 0 {
		return nil
	}
	a := &arrival{rng: rand.New(rand.NewPCG(uint64(c.Seed), pcgStream^0x61727276)), jitterNs: int64(jitter),
		lastNs: make([]int64, procs), at: make([][]int64, procs), strag: -1}
	if c.StragglerRank != nil {
		a.strag, a.lagNs = *c.StragglerRank, int64(c.StragglerLag)
		if a.lagNs == 0 {
			a.lagNs = int64(DefaultStragglerLag)
		}
		if c.StragglerKind == StragglerOneOff {
			a.oneOff = oneOffSteps(c)
		}
	}
	return a
}

// oneOffSteps are the one-off straggler's late steps: the middle step of the run, and the
// one after it where the run has 20 steps or more (the 5th and 6th where Steps is not set).
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

// late reports whether process r's calls of step are logged late.
func (a *arrival) late(r, step int) bool {
	return r == a.strag && (a.oneOff == nil || a.oneOff[step])
}

// plan sets the time of every event of the step's queues: events after the i-th call of
// the plan share its moment (plus a nanosecond each, to keep a process's times increasing).
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
		slot := int64(-1)
		lag := int64(0)
		if a.late(r, step) {
			lag = a.lagNs
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
	if a.strag >= 0 && a.late(a.strag, step) {
		a.steps = append(a.steps, step)
	}
}

// clamp keeps process r's times increasing: t, or a nanosecond after its last time.
func (a *arrival) clamp(r int, t int64) int64 {
	t = max(t, a.lastNs[r]+1)
	a.lastNs[r] = t
	return t
}

// stragglerTruth describes the straggler, or nil without one.
func (g *gen) stragglerTruth() *StragglerTruth {
	a := g.arrive
	if a == nil || a.strag < 0 {
		return nil
	}
	p := &g.topo.procs[a.strag]
	kind := StragglerChronic
	if a.oneOff != nil {
		kind = StragglerOneOff
	}
	return &StragglerTruth{Rank: a.strag, Host: hostName(p.host), PID: p.pid, Kind: kind,
		Lag: time.Duration(a.lagNs), Steps: append([]int(nil), a.steps...)}
}

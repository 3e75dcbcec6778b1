package stages

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nccllog/nccllog/parser"
)

// RanksStage follows every process's communicators and calls: who is which rank, and each
// rank's call sequence (ranks, comms, hang, check). Every call counts in its rank's call
// order, so it reads every line, selected or not.
type RanksStage struct{}

func (RanksStage) Name() string { return "ranks" }
func (RanksStage) Reads() Reads { return ReadsAll }
func (RanksStage) Kinds() KindSet {
	return Kinds(parser.KindCollective, parser.KindComm, parser.KindWarn)
}

func (RanksStage) New(cfg *Config) Partial { return &RanksPart{cfg: cfg} }

// RanksPart is the ranks stage's Partial: the events of its stretch until they are
// committed in input order, then folded into Ranks.
type RanksPart struct {
	cfg      *Config
	Ranks    *Ranks // nil until something is folded or merged
	events   []RankEvent
	anchored int
	open     bool
}

func (p *RanksPart) Add(l *Line) {
	e := RankEvent{Line: l.N, Step: -1, Kind: l.P.Kind, Host: l.P.Env.Host, Pid: l.P.Env.Pid}
	switch l.P.Kind {
	case parser.KindCollective:
		e.Coll = l.P.Coll
	case parser.KindComm:
		c := l.P.Comm
		e.Comm = &c
	case parser.KindWarn:
		e.Text = excerpt(l.Text)
	}
	p.events = append(p.events, e)
	p.open = true
}

// Settle labels the events with their step; those of unselected steps still count in each
// rank's call order.
func (p *RanksPart) Settle(step int64, _ bool) {
	for i := range p.events {
		p.events[i].Step = step
	}
	p.open = false
}

func (p *RanksPart) Anchor(o Origin) {
	for i := p.anchored; i < len(p.events); i++ {
		p.events[i].File = o.File
		p.events[i].Line += o.Base
	}
	p.anchored = len(p.events)
}

// Merge appends o's events, and joins o's folded state (another input's) to this one's.
func (p *RanksPart) Merge(o Partial) {
	op := o.(*RanksPart)
	if p.anchored == len(p.events) {
		p.anchored += op.anchored
	}
	p.events = append(p.events, op.events...)
	p.open = p.open || op.open
	if op.Ranks != nil {
		p.ranks().Merge(op.Ranks)
	}
}

func (p *RanksPart) Reset() {
	*p = RanksPart{cfg: p.cfg, events: p.events[:0]}
}

// Commit folds the settled events into Ranks, in order.
func (p *RanksPart) Commit(Out) error {
	if p.open || len(p.events) == 0 {
		return nil
	}
	r := p.ranks()
	for i := range p.events {
		r.Add(p.events[i].File, &p.events[i])
	}
	p.events, p.anchored = p.events[:0], 0
	return nil
}

// Held is how many events wait for their step.
func (p *RanksPart) Held() int { return len(p.events) }

func (p *RanksPart) ranks() *Ranks {
	if p.Ranks == nil {
		p.Ranks = NewRanks(p.cfg)
	}
	return p.Ranks
}

// RanksOf returns the ranks state of s (empty where the run had no ranks stage).
func RanksOf(s *Set) *Ranks {
	if p, ok := Part[*RanksPart](s); ok && p.Ranks != nil {
		return p.Ranks
	}
	return NewRanks(&Config{})
}

// RanksSnapshot is what Ranks knows: every communicator, largest first, with its ranks and
// its reference sequence, whose calls name their signatures in Sigs (id k is Sigs[k-1], 0 a
// call not compared); and the events still held.
type RanksSnapshot struct {
	Sigs   []Sig
	Groups []GroupSnapshot
	Held   []RankEvent `json:",omitempty"`
}

// GroupSnapshot is one communicator. Its reference sequence is written a step at a time, and
// a step whose calls are those of the step before is written without them: training loops
// repeat, so a partial grows with the distinct steps, not with the calls.
type GroupSnapshot struct {
	Key      GroupKey
	NRanks   int64
	Evidence string
	Members  []Member
	Ref      []RefStep
}

// RefStep is a run of a reference sequence's calls with the same step.
type RefStep struct {
	Step int64    `json:"t"`
	N    int      `json:"n"`
	Sigs []uint32 `json:"s,omitempty"` // nil: the same as the run before
}

// Snapshot numbers the signatures in the order the communicators first use them, so that
// the same state gives the same snapshot however it was built.
func (p *RanksPart) Snapshot() any {
	out := RanksSnapshot{Held: p.events}
	if p.Ranks == nil {
		return out
	}
	ids := make(map[uint32]uint32)
	renumber := func(id uint32) uint32 {
		if id == 0 {
			return 0
		}
		if n, ok := ids[id]; ok {
			return n
		}
		out.Sigs = append(out.Sigs, p.Ranks.sigs.sig(id))
		ids[id] = uint32(len(out.Sigs))
		return ids[id]
	}
	for _, g := range p.Ranks.Groups() {
		gs := GroupSnapshot{Key: g.Key, NRanks: g.NRanks, Evidence: g.Evidence}
		for _, m := range g.Members {
			gs.Members = append(gs.Members, *m)
		}
		gs.Ref = refSteps(g.ref, renumber)
		out.Groups = append(out.Groups, gs)
	}
	return out
}

// refSteps cuts a reference sequence into runs of one step.
func refSteps(ref []refCall, id func(uint32) uint32) []RefStep {
	var out []RefStep
	var prev []uint32
	for i := 0; i < len(ref); {
		j := i
		for j < len(ref) && ref[j].step == ref[i].step {
			j++
		}
		sigs := make([]uint32, j-i)
		for k := range sigs {
			sigs[k] = id(ref[i+k].sig)
		}
		rs := RefStep{Step: int64(ref[i].step), N: j - i, Sigs: sigs}
		if slices.Equal(sigs, prev) {
			rs.Sigs = nil
		}
		out, prev = append(out, rs), sigs
		i = j
	}
	return out
}

// Restore reads a snapshot back: the communicators and their ranks, ready to merge with
// others and to answer ranks, comms, hang and check.
func (p *RanksPart) Restore(data json.RawMessage) error {
	var snap RanksSnapshot
	if err := json.Unmarshal(data, &snap); err != nil {
		return err
	}
	p.Reset()
	r := p.ranks()
	for _, s := range snap.Sigs {
		r.sigs.id(s)
	}
	for _, gs := range snap.Groups {
		g := &Group{Key: gs.Key, NRanks: gs.NRanks, Evidence: gs.Evidence}
		for i := range gs.Members {
			m := gs.Members[i]
			if m.ByOp == nil {
				m.ByOp = make(map[string]*Volume)
			}
			g.Members = append(g.Members, &m)
		}
		var prev []uint32
		for _, rs := range gs.Ref {
			sigs := rs.Sigs
			if sigs == nil {
				sigs = prev
			}
			if len(sigs) != rs.N {
				return fmt.Errorf("communicator %+v: a run of %d calls names %d", gs.Key, rs.N, len(sigs))
			}
			for _, id := range sigs {
				if int(id) > len(snap.Sigs) {
					return fmt.Errorf("communicator %+v: no call signature %d", gs.Key, id)
				}
				g.ref = append(g.ref, refCall{id, int32(rs.Step)})
			}
			prev = sigs
		}
		r.groups[g.Key] = g
	}
	p.events = append(p.events, snap.Held...)
	return nil
}

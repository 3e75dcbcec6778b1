package stages

import "github.com/nccllog/nccllog/parser"

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

// GroupSnapshot is one communicator as Ranks knows it: its ranks in rank order, and its
// reference call sequence.
type GroupSnapshot struct {
	Key      GroupKey
	NRanks   int64
	Evidence string
	Members  []Member
	Ref      []RefSnapshot
}

// RefSnapshot is one position of a communicator's reference sequence.
type RefSnapshot struct {
	Sig  Sig
	Step int64
}

// Snapshot is every communicator, largest first, with the events still held.
func (p *RanksPart) Snapshot() any {
	var out struct {
		Groups []GroupSnapshot
		Held   []RankEvent
	}
	out.Held = p.events
	if p.Ranks == nil {
		return out
	}
	for _, g := range p.Ranks.Groups() {
		gs := GroupSnapshot{Key: g.Key, NRanks: g.NRanks, Evidence: g.Evidence}
		for _, m := range g.Members {
			gs.Members = append(gs.Members, *m)
		}
		for k := range g.ref {
			s, step, _ := p.Ranks.RefCall(g, int64(k))
			gs.Ref = append(gs.Ref, RefSnapshot{s, step})
		}
		out.Groups = append(out.Groups, gs)
	}
	return out
}

package ranks

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// RanksStage follows every process's communicators and calls: who is which rank, and each
// rank's call sequence (ranks, comms, hang, check). Every call counts in its rank's call
// order, so it reads every line, selected or not.
type RanksStage struct {
	// NoVolume: the run asks for verdicts only (hang, check, diagnose), which no rank's bytes
	// or bus volume enter: they are not summed, which on a log of calls was a tenth of what
	// following the ranks cost a call. Member.ByOp and FirstStep stay empty.
	NoVolume bool
	// AsksCalledFirst: the run asks first whether any rank called (Ranks.Called) and wants
	// the rest of the state only where one did (diagnose). Ranks then holds the events of a
	// log without a call unfolded (deferred.go); without it, it folds them as they come,
	// which every other command, asking for the state at its end, would have paid for twice
	// (held, then folded anyway).
	AsksCalledFirst bool
}

func (RanksStage) Name() string        { return "ranks" }
func (RanksStage) Reads() stages.Reads { return stages.ReadsAll }
func (RanksStage) Kinds() stages.KindSet {
	// INFO and failure lines count only for their times (see events.addClock).
	return stages.Kinds(parser.KindCollective, parser.KindComm, parser.KindWarn, parser.KindWatchdog, parser.KindInfo, parser.KindFailure)
}

func (s RanksStage) New(cfg *stages.Config) stages.Partial {
	return &RanksPart{cfg: cfg, noVolume: s.NoVolume, defers: s.AsksCalledFirst}
}

// RanksPart is the ranks stage's Partial: the events of its stretch until they are
// committed in input order, then folded into Ranks.
type RanksPart struct {
	cfg      *stages.Config
	noVolume bool   // see RanksStage.NoVolume
	defers   bool   // see RanksStage.AsksCalledFirst
	Ranks    *Ranks // nil until something is folded or merged
	events   events
}

func (p *RanksPart) Add(l *stages.Line) {
	if l.P.Kind == parser.KindCollective && !ofKnownComm(l.P) {
		return
	}
	p.events.add(l.N, l.Text, l.P)
}

// ofKnownComm reports whether a call can be placed in its rank's sequence: a process's
// communicator is known by (host, pid) and the comm pointer, and a record pasted without its
// envelope, or with its comm pointer redacted, names neither. Such calls still count in the
// per-call analyses (stats, hist, agg, calls).
func ofKnownComm(l *parser.Line) bool {
	return l.Env.HasEnvelope() && l.Coll.Unread&parser.PtrComm == 0
}

// Settle labels the events with their step; those of unselected steps still count in each
// rank's call order.
func (p *RanksPart) Settle(step int64, _ bool) { p.events.settle(step) }

func (p *RanksPart) Anchor(o stages.Origin) { p.events.anchor(o) }

// Merge appends o's events, and joins o's folded state (another input's) to this one's.
func (p *RanksPart) Merge(o stages.Partial) {
	op := o.(*RanksPart)
	p.events.merge(&op.events)
	if op.Ranks != nil {
		p.ranks().Merge(op.Ranks)
	}
}

func (p *RanksPart) Reset() {
	p.events.reset()
	p.Ranks = nil
}

// Commit folds the settled events into Ranks, in order.
func (p *RanksPart) Commit(stages.Out) error {
	if p.events.Open || len(p.events.Items) == 0 {
		return nil
	}
	p.ranks().foldHeld(&p.events)
	p.events.committed()
	return nil
}

// CanFold reports whether o's events can be folded from o: p holds none (the Merger's
// Total, which commits all it merges), o's are settled, and o has no folded state to join.
func (p *RanksPart) CanFold(o stages.Partial) bool {
	op := o.(*RanksPart)
	return len(p.events.Items) == 0 && !p.events.Open && !op.events.Open && op.Ranks == nil
}

// Fold folds o's events into Ranks, in order, as Merge and Commit would, without moving
// them: o keeps its buffers (a chunk's, which the chunk's next use fills again).
func (p *RanksPart) Fold(o stages.Partial, _ stages.Out) error {
	op := o.(*RanksPart)
	if len(op.events.Items) > 0 {
		p.ranks().foldHeld(&op.events)
	}
	op.events.reset()
	return nil
}

// Held is how many events wait for their step.
func (p *RanksPart) Held() int { return len(p.events.Items) }

// NeedsStep reports whether a call waits for its step: the other events (communicator,
// WARN, watchdog lines, and INFO lines for their times) fold the same in every step.
func (p *RanksPart) NeedsStep() bool { return p.events.calls }

// Reserve makes room for n events.
func (p *RanksPart) Reserve(n int) { p.events.Items = stages.Reserve(p.events.Items, n) }

func (p *RanksPart) ranks() *Ranks {
	if p.Ranks == nil {
		p.Ranks = NewRanks(p.cfg)
		p.Ranks.noVolume, p.Ranks.defers = p.noVolume, p.defers
	}
	return p.Ranks
}

// RanksOf returns the ranks state of s (empty where the run had no ranks stage).
func RanksOf(s *stages.Set) *Ranks {
	if p, ok := stages.Part[*RanksPart](s); ok && p.Ranks != nil {
		return p.Ranks
	}
	return NewRanks(&stages.Config{})
}

// RanksSnapshot is what Ranks knows: every communicator, largest first, with its ranks and
// its reference sequence, whose calls name their signatures in Sigs (id k is Sigs[k-1], 0 a
// call not compared); and the events still held.
type RanksSnapshot struct {
	Sigs   []Sig
	Groups []GroupSnapshot
	Held   []RankEvent `json:",omitempty"`
	// PGs are the ranks of the PyTorch process groups the watchdog lines name.
	PGs []PGRank `json:",omitempty"`
	// Over is what is kept of the communicators past the cap (see MaxComms).
	Over *OverflowSnapshot `json:",omitempty"`
	// Files are the times of the input files whose lines carry some, in file order.
	Files []FileClock `json:",omitempty"`
}

// OverflowSnapshot is an Overflow: its communicators' keys, in key order, and their sums.
type OverflowSnapshot struct {
	Keys          []GroupKey
	Closed, Ranks int64
	ByOp          map[parser.Op]Volume
}

// GroupSnapshot is one communicator. Its reference sequence is written a step at a time, and
// a step whose calls are those of the step before is written without them: training loops
// repeat, so a partial grows with the distinct steps, not with the calls.
type GroupSnapshot struct {
	Key               GroupKey
	NRanks            int64
	Evidence          Grouping
	Nodes, LocalRanks int64
	OpsDown, Aligned  bool
	Truncated         bool `json:",omitempty"`
	Members           []MemberSnapshot
	Ref               []RefStep
}

// MemberSnapshot is one rank, with the calls kept to align an excerpt by overlap.
type MemberSnapshot struct {
	MemberState
	Started  bool
	Hist     []RefStep `json:",omitempty"`
	HistOver bool      `json:",omitempty"`
}

// MemberState is a Member's exported state, as a partial result writes it.
type MemberState struct {
	Host       string
	Pid        int64
	File       string
	Rank       int64
	RankFrom   string
	CudaDev    int64
	LaunchRank int64
	Calls      int64
	Start      int64
	FirstOp    uint64
	ByOp       map[parser.Op]*Volume
	FirstStep  int64
	LastStep   int64
	Last       Sig
	LastLine   int64
	FirstDiv   int64
	DivSig     Sig
	End        string
	Warn       string
	WarnLine   int64
	WarnAdvice bool `json:",omitempty"`
	ProcLast   int64
	Clock      *Clock `json:",omitempty"`
}

// state is m's exported state.
func (m *Member) state() MemberState {
	return MemberState{Host: m.Host, Pid: m.Pid, File: m.File, Rank: m.Rank, RankFrom: m.RankFrom(), CudaDev: m.CudaDev,
		LaunchRank: m.LaunchRank, Calls: m.Calls, Start: m.Start, FirstOp: m.FirstOp(), ByOp: m.ByOp,
		FirstStep: m.FirstStep(), LastStep: m.LastStep(), Last: m.Last(), LastLine: m.LastLine(),
		FirstDiv: m.FirstDiv(), DivSig: m.DivSig(), End: m.End(), Warn: m.Warn(), WarnLine: m.WarnLine(),
		WarnAdvice: m.WarnAdvice(), ProcLast: m.ProcLast(), Clock: m.Clock}
}

// member is the Member of state s. Its call fields are kept aside only where some differs
// from a Member's without calls.
func (s *MemberState) member() *Member {
	m := &Member{Host: s.Host, Pid: s.Pid, File: s.File, Rank: s.Rank, CudaDev: s.CudaDev,
		LaunchRank: s.LaunchRank, Calls: s.Calls, Start: s.Start, ByOp: s.ByOp, Clock: s.Clock}
	m.setRankFrom(s.RankFrom)
	m.setEnd(s.End)
	if s.FirstOp != 0 || s.FirstStep != -1 || s.LastStep != -1 || s.Last != (Sig{}) || s.LastLine != 0 ||
		s.FirstDiv != -1 || s.DivSig != (Sig{}) {
		mc := m.callState()
		mc.firstOp, mc.firstStep, mc.lastStep, mc.last, mc.lastLine = s.FirstOp, s.FirstStep, s.LastStep, s.Last, s.LastLine
		mc.firstDiv, mc.divSig = s.FirstDiv, s.DivSig
	}
	m.setWarn(s.Warn, s.WarnLine, s.WarnAdvice, s.ProcLast)
	return m
}

// RefStep is a run of calls with the same step: their signatures (nil: those of the run
// before), and their opCounts, Op0 + i*OpStep where OpStep is 0 or 1, else listed in Ops.
type RefStep struct {
	Step   int64    `json:"t"`
	N      int      `json:"n"`
	Sigs   []uint32 `json:"s,omitempty"`
	Op0    uint64   `json:"o"`
	OpStep uint64   `json:"d,omitempty"`
	Ops    []uint64 `json:"ops,omitempty"`
}

// Snapshot numbers the signatures in the order the communicators first use them, so that
// the same state gives the same snapshot however it was built.
func (p *RanksPart) Snapshot() any {
	out := RanksSnapshot{}
	for i := range p.events.Items {
		e := p.events.rankEvent(i)
		if e.Comm != nil {
			c := *e.Comm // rankEvent's is overwritten by the next
			e.Comm = &c
		}
		out.Held = append(out.Held, e)
	}
	if p.Ranks == nil {
		return out
	}
	p.Ranks.settle()
	for _, pg := range p.Ranks.PGRanks() {
		out.PGs = append(out.PGs, *pg)
	}
	out.Over = p.Ranks.over.snapshot()
	out.Files = p.Ranks.fileClocks()
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
		gs := GroupSnapshot{Key: g.Key, NRanks: g.NRanks, Evidence: g.Evidence, Nodes: g.Nodes,
			LocalRanks: g.LocalRanks, OpsDown: g.opsDown, Aligned: g.aligned, Truncated: g.truncated,
			Ref: refSteps(g.ref.flat(), renumber, p.Ranks.steps)}
		for _, m := range g.Members {
			ms := MemberSnapshot{MemberState: m.state(), Started: m.started,
				Hist: refSteps(m.kept(), renumber, p.Ranks.steps), HistOver: m.histOver}
			if ms.ByOp == nil {
				ms.ByOp = map[parser.Op]*Volume{} // written {} as before it was made on first use
			}
			gs.Members = append(gs.Members, ms)
		}
		out.Groups = append(out.Groups, gs)
	}
	return out
}

// refSteps cuts a sequence of calls into runs of one step (numbered by steps).
func refSteps(ref []refCall, id func(uint32) uint32, steps *stepTable) []RefStep {
	var out []RefStep
	var prev []uint32
	for i := 0; i < len(ref); {
		j := i
		for j < len(ref) && ref[j].step == ref[i].step {
			j++
		}
		rs := RefStep{Step: steps.step(ref[i].step), N: j - i, Sigs: make([]uint32, j-i), Op0: ref[i].op}
		for k := range rs.Sigs {
			rs.Sigs[k] = id(ref[i+k].sig)
		}
		if j-i > 1 {
			rs.OpStep = ref[i+1].op - ref[i].op
		}
		for k := i; k < j && rs.Ops == nil; k++ {
			if ref[k].op != rs.Op0+uint64(k-i)*rs.OpStep || rs.OpStep > 1 {
				rs.OpStep = 0
				for _, c := range ref[i:j] {
					rs.Ops = append(rs.Ops, c.op)
				}
			}
		}
		sigs := rs.Sigs
		if slices.Equal(sigs, prev) {
			rs.Sigs = nil
		}
		out, prev = append(out, rs), sigs
		i = j
	}
	return out
}

// calls expands runs back into calls; nsigs is how many signatures there are, steps the
// table that numbers their steps.
func (rs RefStep) calls(prev []uint32, ids []uint32, steps *stepTable) ([]refCall, []uint32, error) {
	sigs := rs.Sigs
	if sigs == nil {
		sigs = prev
	}
	if len(sigs) != rs.N || rs.Ops != nil && len(rs.Ops) != rs.N {
		return nil, nil, fmt.Errorf("a run of %d calls names %d signatures and %d opCounts", rs.N, len(sigs), len(rs.Ops))
	}
	out := make([]refCall, rs.N)
	step := steps.id(rs.Step)
	for k, id := range sigs {
		if int(id) >= len(ids) {
			return nil, nil, fmt.Errorf("no call signature %d", id)
		}
		op := rs.Op0 + uint64(k)*rs.OpStep
		if rs.Ops != nil {
			op = rs.Ops[k]
		}
		out[k] = refCall{ids[id], step, op}
	}
	return out, sigs, nil
}

// expand is the calls of runs, which lim must allow: a run that repeats the calls of the
// run before costs a few bytes for as many calls as that run had.
func expand(runs []RefStep, ids []uint32, steps *stepTable, lim *stages.Limits) ([]refCall, error) {
	total, err := expanded(runs)
	if err != nil {
		return nil, err
	}
	if err := lim.TakeCalls(total); err != nil {
		return nil, err
	}
	out := make([]refCall, 0, total)
	var prev []uint32
	for _, rs := range runs {
		cs, sigs, err := rs.calls(prev, ids, steps)
		if err != nil {
			return nil, err
		}
		out, prev = append(out, cs...), sigs
	}
	return out, nil
}

// expanded is how many calls runs expand to; each run's own count is checked against its
// signatures when it is expanded.
func expanded(runs []RefStep) (int64, error) {
	var total int64
	for _, rs := range runs {
		if rs.N < 0 || int64(rs.N) > stages.MaxPartialCount-total {
			return 0, stages.Damaged("a run of %d calls", rs.N)
		}
		total += int64(rs.N)
	}
	return total, nil
}

// Restore reads a snapshot back: the communicators and their ranks, ready to merge with
// others and to answer ranks, comms, hang and check.
func (p *RanksPart) Restore(dec *json.Decoder, lim *stages.Limits) error {
	var snap RanksSnapshot
	if err := dec.Decode(&snap); err != nil {
		return err
	}
	if err := snap.check(); err != nil {
		return err
	}
	p.Reset()
	r := p.ranks()
	// ids maps the snapshot's signature numbers (from 1; 0 is none) to the table's: a
	// damaged or crafted snapshot may list a signature twice, which the table holds once.
	ids := make([]uint32, len(snap.Sigs)+1)
	for i, s := range snap.Sigs {
		ids[i+1] = r.sigs.id(s)
	}
	for _, gs := range snap.Groups {
		g := &Group{Key: gs.Key, NRanks: gs.NRanks, Evidence: gs.Evidence, Nodes: gs.Nodes,
			LocalRanks: gs.LocalRanks, opsDown: gs.OpsDown, aligned: gs.Aligned, truncated: gs.Truncated, steps: r.steps}
		var err error
		ref, err := expand(gs.Ref, ids, r.steps, lim)
		if err != nil {
			return fmt.Errorf("communicator %+v: %w", gs.Key, err)
		}
		g.ref = seqOf(ref)
		for i := range gs.Members {
			ms := &gs.Members[i]
			m := ms.member()
			m.started, m.histOver, m.g = ms.Started, ms.HistOver, g
			hist, err := expand(ms.Hist, ids, r.steps, lim)
			if err != nil {
				return fmt.Errorf("communicator %+v: %w", gs.Key, err)
			}
			if len(hist) > 0 {
				m.callState().hist = hist
			}
			g.Members = append(g.Members, m)
		}
		r.groups[g.Key] = g
	}
	r.over.restore(snap.Over)
	for i := range snap.Files {
		r.putFile(snap.Files[i])
	}
	for i := range snap.PGs {
		pg := snap.PGs[i]
		r.pgs[pgRankKey{pg.PG, pg.Rank}] = &pg
	}
	for i := range snap.Held {
		if err := p.events.addRankEvent(&snap.Held[i]); err != nil {
			return err
		}
	}
	return nil
}

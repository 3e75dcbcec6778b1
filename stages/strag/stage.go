package strag

import (
	"cmp"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// StragStage compares the times of every rank's calls at the same position of a
// communicator. It reads every line, selected step or not: a position's step is known only
// once its calls are merged (per-process files without progress lines take it from rank 0's),
// so --steps narrows the report, not what is read.
type StragStage struct{}

func (StragStage) Name() string        { return "stragglers" }
func (StragStage) Reads() stages.Reads { return stages.ReadsAll }
func (StragStage) Kinds() stages.KindSet {
	return stages.Kinds(parser.KindCollective, parser.KindComm)
}

func (StragStage) New(cfg *stages.Config) stages.Partial {
	return &StragPart{cfg: cfg, sk: newSketch(), comms: make(map[procComm]commRank), hosts: make(map[string]string)}
}

// MinDigits is the fewest fraction-of-second digits a time needs to be compared: NCCL's
// default `[%F %T]` prints whole seconds, far coarser than the lags looked for.
const MinDigits = 3

// MaxComms is how many (process, comm pointer) pairs the partial keeps; past it the run's
// communicators are not known well enough and nothing is compared.
const MaxComms = 1 << 16

// procComm is one process's communicator pointer.
type procComm struct {
	Host string
	Pid  int64
	Comm uint64
}

// commRank is what init lines say of a process's communicator: its commId and the rank.
// Ambiguous is set where the pointer was seen with another commId or rank (reused).
type commRank struct {
	ID        uint64
	Rank      int64
	NRanks    int64
	Dev       int64 // the rank's CUDA device, -1 where the line prints none
	Ambiguous bool
}

// Counts are the calls the stage saw, by how they were timed.
type Counts struct {
	Timed, Untimed, Coarse, SinceInit int64
}

// StragPart is the stragglers stage's Partial.
type StragPart struct {
	cfg      *stages.Config // its Steps narrow the report to the positions of those steps
	sk       sketch
	comms    map[procComm]commRank
	commOver bool
	hosts    map[string]string // interned host names (the line's may point into its chunk)
	Counts   Counts
}

// maxHosts is how many host names the partial interns; past it each is copied alone (a log
// of ever new names must not grow the table).
const maxHosts = 4096

// host returns h copied out of the chunk it may point into, shared where it was seen before.
func (p *StragPart) host(h string) string {
	if s, ok := p.hosts[h]; ok {
		return s
	}
	s := strings.Clone(h)
	if len(p.hosts) < maxHosts {
		p.hosts[s] = s
	}
	return s
}

func (p *StragPart) Add(l *stages.Line) {
	if l.P.Kind == parser.KindComm {
		p.addComm(l.P)
		return
	}
	if !l.P.Env.HasEnvelope() || l.P.Coll.Unread&parser.PtrComm != 0 {
		return
	}
	t := l.P.Time
	switch {
	case t.IsZero():
		p.Counts.Untimed++
		return
	case t.Form == parser.StampTrace:
		p.Counts.SinceInit++
		return
	case t.Digits < MinDigits:
		p.Counts.Coarse++
		return
	}
	p.Counts.Timed++
	c := &l.P.Coll
	k := PosKey{OpCount: c.OpCount, Op: c.Op, Count: c.Count, Dtype: c.Datatype, NRanks: c.NRanks}
	if !p.sk.takes(k) {
		return
	}
	a := Arrival{Host: p.host(l.P.Env.Host), Pid: l.P.Env.Pid, Comm: c.Comm, Ns: t.Nanos, Zoned: t.Zoned, Step: unsettled}
	p.sk.add(k, k.hash(), 1, []Arrival{a})
	p.sk.open++
}

// addComm takes an init line's commId and rank.
func (p *StragPart) addComm(l *parser.Line) {
	e := &l.Comm
	if e.CommID == 0 || e.Rank < 0 || !l.Env.HasEnvelope() {
		return
	}
	p.putComm(procComm{p.host(l.Env.Host), l.Env.Pid, e.Comm}, commRank{ID: e.CommID, Rank: e.Rank, NRanks: e.NRanks, Dev: e.CudaDev})
}

func (p *StragPart) putComm(k procComm, v commRank) {
	if p.commOver {
		return
	}
	if old, ok := p.comms[k]; ok {
		if old.ID != v.ID || old.Rank != v.Rank || v.Ambiguous {
			old.Ambiguous = true
			p.comms[k] = old
		}
		return
	}
	if len(p.comms) >= MaxComms {
		p.commOver = true
		clear(p.comms)
		return
	}
	p.comms[k] = v
}

func (p *StragPart) Settle(step int64, _ bool) { p.sk.settle(step) }
func (p *StragPart) Anchor(stages.Origin)      {}

func (p *StragPart) Merge(o stages.Partial) {
	op := o.(*StragPart)
	p.sk.merge(&op.sk)
	for _, k := range sortedComms(op.comms) {
		p.putComm(procComm{p.host(k.Host), k.Pid, k.Comm}, op.comms[k])
	}
	p.commOver = p.commOver || op.commOver
	if p.commOver {
		clear(p.comms)
	}
	p.Counts.Timed += op.Counts.Timed
	p.Counts.Untimed += op.Counts.Untimed
	p.Counts.Coarse += op.Counts.Coarse
	p.Counts.SinceInit += op.Counts.SinceInit
}

func (p *StragPart) Reset() {
	p.sk.reset()
	clear(p.comms)
	p.commOver = false
	p.Counts = Counts{}
}

// Held is how many arrivals wait for their step.
func (p *StragPart) Held() int { return p.sk.open }

func sortedComms(m map[procComm]commRank) []procComm {
	ks := make([]procComm, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b procComm) int {
		return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(a.Pid, b.Pid), cmp.Compare(a.Comm, b.Comm))
	})
	return ks
}

// CommSnapshot is one process's communicator as a snapshot lists it.
type CommSnapshot struct {
	procComm
	commRank
}

// Snapshot is the stage's content in a fixed order.
type Snapshot struct {
	Positions []*Position
	Comms     []CommSnapshot
	CommOver  bool
	Counts    Counts
}

func (p *StragPart) Snapshot() any {
	s := Snapshot{Positions: p.sk.sorted(), CommOver: p.commOver, Counts: p.Counts}
	for _, k := range sortedComms(p.comms) {
		s.Comms = append(s.Comms, CommSnapshot{k, p.comms[k]})
	}
	return s
}

// StragOf returns the stage's Partial in s (nil where the run had no stragglers stage).
func StragOf(s *stages.Set) *StragPart {
	if p, ok := stages.Part[*StragPart](s); ok {
		return p
	}
	return nil
}

// Report is the stragglers report of s (empty where the run had no stragglers stage).
func Report(s *stages.Set) StragglersReport {
	if p := StragOf(s); p != nil {
		return p.Report()
	}
	return StragglersReport{Stragglers: []Straggler{}}
}

package stream

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// CallsStage passes every call of the selected steps to the run's Out, in input order.
type CallsStage struct{}

func (CallsStage) Name() string          { return "calls" }
func (CallsStage) Reads() stages.Reads   { return stages.ReadsSelected }
func (CallsStage) Kinds() stages.KindSet { return stages.Kinds(parser.KindCollective) }

func (CallsStage) New(*stages.Config) stages.Partial { return &CallsPart{} }

// CallsPart is the calls stage's stages.Partial: the calls of its stretch, until they are written.
type CallsPart struct {
	calls   stages.Held[stages.Call, *stages.Call]
	written int64
}

func (p *CallsPart) Add(l *stages.Line) {
	c := &l.P.Coll
	p.calls.Add(stages.Call{Line: l.N, Step: -1, Rank: l.P.Rank, Env: l.P.Env, Coll: *c,
		Dropped: c.Count <= 0 || c.Datatype.Size() == 0, Time: l.P.Time})
}

func (p *CallsPart) Settle(step int64, selected bool) { p.calls.Settle(step, selected) }
func (p *CallsPart) Anchor(o stages.Origin)           { p.calls.Anchor(o) }

func (p *CallsPart) Merge(o stages.Partial) {
	op := o.(*CallsPart)
	p.calls.Merge(&op.calls)
	p.written += op.written
}

func (p *CallsPart) Reset() {
	p.calls.Reset()
	p.written = 0
}

// Commit writes the settled calls.
func (p *CallsPart) Commit(out stages.Out) error {
	if p.calls.Open {
		return nil
	}
	for i := range p.calls.Items {
		if err := out.Call(&p.calls.Items[i]); err != nil {
			return err
		}
	}
	p.written += int64(len(p.calls.Items))
	p.calls.Committed()
	return nil
}

// Held is how many calls wait for their step.
func (p *CallsPart) Held() int { return len(p.calls.Items) }

// DropsUnselected: the calls of a step the run does not select are not written.
func (p *CallsPart) DropsUnselected() bool { return true }

// Written is how many calls were written to the run's Out.
func (p *CallsPart) Written() int64 { return p.written }

func (CallsStage) Writes() bool { return true }

// CallsSnapshot is what a calls stages.Partial wrote and holds.
type CallsSnapshot struct {
	Written int64
	Held    []stages.Call `json:",omitempty"`
}

func (p *CallsPart) Snapshot() any { return CallsSnapshot{p.written, p.calls.Items} }

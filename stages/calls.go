package stages

import "github.com/nccllog/nccllog/parser"

// Call is one collective call line with where it was and the step it belongs to.
type Call struct {
	File    string
	Line    int64 // line number within its file
	Step    int64 // -1 when the call belongs to no step
	Rank    int64 // launcher rank from the line's prefix, -1 for none
	Env     parser.Envelope
	Coll    parser.Collective
	Dropped bool // left out of the analyses (count <= 0 or unknown datatype)
}

// Bytes is count × element size (0 for an unknown datatype), at most MaxBytes.
func (c *Call) Bytes() int64 { return mulBytes(c.Coll.Count, c.Coll.Datatype.Size()) }

// CallsStage passes every call of the selected steps to the run's Out, in input order.
type CallsStage struct{}

func (CallsStage) Name() string   { return "calls" }
func (CallsStage) Reads() Reads   { return ReadsSelected }
func (CallsStage) Kinds() KindSet { return Kinds(parser.KindCollective) }

func (CallsStage) New(*Config) Partial { return &CallsPart{} }

// CallsPart is the calls stage's Partial: the calls of its stretch, until they are written.
type CallsPart struct {
	calls   held[Call, *Call]
	written int64
}

func (p *CallsPart) Add(l *Line) {
	c := &l.P.Coll
	p.calls.add(Call{Line: l.N, Step: -1, Rank: l.P.Rank, Env: l.P.Env, Coll: *c,
		Dropped: c.Count <= 0 || c.Datatype.Size() == 0})
}

func (p *CallsPart) Settle(step int64, selected bool) { p.calls.settle(step, selected) }
func (p *CallsPart) Anchor(o Origin)                  { p.calls.anchor(o) }

func (p *CallsPart) Merge(o Partial) {
	op := o.(*CallsPart)
	p.calls.merge(&op.calls)
	p.written += op.written
}

func (p *CallsPart) Reset() {
	p.calls.reset()
	p.written = 0
}

// Commit writes the settled calls.
func (p *CallsPart) Commit(out Out) error {
	if p.calls.open {
		return nil
	}
	for i := range p.calls.items {
		if err := out.Call(&p.calls.items[i]); err != nil {
			return err
		}
	}
	p.written += int64(len(p.calls.items))
	p.calls.committed()
	return nil
}

// Held is how many calls wait for their step.
func (p *CallsPart) Held() int { return len(p.calls.items) }

// DropsUnselected: the calls of a step the run does not select are not written.
func (p *CallsPart) DropsUnselected() bool { return true }

// Written is how many calls were written to the run's Out.
func (p *CallsPart) Written() int64 { return p.written }

func (CallsStage) Writes() bool { return true }

// CallsSnapshot is what a calls Partial wrote and holds.
type CallsSnapshot struct {
	Written int64
	Held    []Call `json:",omitempty"`
}

func (p *CallsPart) Snapshot() any { return CallsSnapshot{p.written, p.calls.items} }

package agg

import (
	"encoding/json"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// AggStage counts the calls of the selected steps per (op, count, datatype); per-op stats
// and the size histogram are derived from it.
type AggStage struct {
	// PerOp: the stage keeps per-op sums and the histogram only, not a count per distinct
	// (op, count, datatype), for commands that print per-op rows (stats, hist).
	PerOp bool
}

func (AggStage) Name() string          { return "agg" }
func (AggStage) Reads() stages.Reads   { return stages.ReadsSelected }
func (AggStage) Kinds() stages.KindSet { return stages.Kinds(parser.KindCollective) }

func (s AggStage) New(*stages.Config) stages.Partial {
	if s.PerOp {
		return &AggPart{Agg: newPerOpAgg()}
	}
	return &AggPart{Agg: NewAgg()}
}

// AggPart is the agg stage's Partial.
type AggPart struct{ *Agg }

func (p *AggPart) Add(l *stages.Line) { p.Agg.Add(l.P.Coll.Op, l.P.Coll.Count, l.P.Coll.Datatype) }

// Settle drops the calls of a step the run does not select.
func (p *AggPart) Settle(_ int64, selected bool) {
	if !selected {
		p.Agg.reset()
	}
}

func (p *AggPart) Anchor(stages.Origin)   {}
func (p *AggPart) Merge(o stages.Partial) { p.Agg.Merge(o.(*AggPart).Agg) }
func (p *AggPart) Reset()                 { p.Agg.reset() }

// AggOf returns the aggregation of s (empty where the run had no agg stage).
func AggOf(s *stages.Set) *Agg {
	if p, ok := stages.Part[*AggPart](s); ok {
		return p.Agg
	}
	return NewAgg()
}

// AggSnapshot is an Agg's content: its groups, or where it keeps per-op sums only, those.
type AggSnapshot struct {
	Groups  []AggRow
	Dropped []DropRow
	Ops     []OpSum `json:",omitempty"`
}

func (p *AggPart) Snapshot() any {
	s := AggSnapshot{Groups: p.Rows(), Dropped: p.DroppedRows()}
	if p.perOp != nil {
		s.Ops = p.opSums()
	}
	return s
}

func (p *AggPart) Restore(dec *json.Decoder, _ *stages.Limits) error {
	var snap AggSnapshot
	if err := dec.Decode(&snap); err != nil {
		return err
	}
	if err := snap.check(); err != nil {
		return err
	}
	p.Agg.reset()
	if len(snap.Ops) > 0 && p.perOp == nil {
		return errPerOpOnly
	}
	for _, s := range snap.Ops {
		p.Agg.mergeOp(s, -1, 0)
	}
	for _, g := range snap.Groups {
		p.Agg.addN(g.AggKey, g.Calls)
	}
	for _, d := range snap.Dropped {
		p.Agg.dropped[d.DropKey] += d.Calls
	}
	return nil
}

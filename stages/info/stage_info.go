package info

import (
	"encoding/json"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// InfoStage reads the set-up lines: versions, network and transports, environment, tuning,
// init timings and WARNs, to find the ranks that differ (info). Set-up belongs to no step:
// every line counts, selected or not.
type InfoStage struct{}

func (InfoStage) Name() string        { return "info" }
func (InfoStage) Reads() stages.Reads { return stages.ReadsAll }
func (InfoStage) Kinds() stages.KindSet {
	return stages.Kinds(parser.KindCollective, parser.KindComm, parser.KindVersion, parser.KindOther,
		parser.KindWarn, parser.KindInfo, parser.KindTrace)
}

func (InfoStage) New(cfg *stages.Config) stages.Partial {
	return &InfoPart{Info: NewInfo(), portable: cfg.Portable}
}

// InfoPart is the info stage's Partial. Where the run writes a partial result it also keeps
// the set-up lines themselves: what Info concludes from them depends on lines that may come
// later (a thread's Init COMPLETE, another rank's facts), so the partial result holds the
// lines, which are a small part of a log, and reading it reads them again.
type InfoPart struct {
	*Info
	portable bool
	kept     stages.Held[InfoLine, *InfoLine]
	coll     int64 // collective lines (only counted)
}

// InfoLine is a set-up line kept for a partial result.
type InfoLine struct {
	File string `json:"f"`
	Line int64  `json:"l"`
	Text string `json:"t"`
}

func (l *InfoLine) Settle(int64) {}

func (l *InfoLine) Anchor(file string, base int64) { l.File, l.Line = file, l.Line+base }

// InfoPortable is the partial-result form of info: its lines, and how many collective lines
// there were.
type InfoPortable struct {
	Lines       []InfoLine `json:"lines"`
	Collectives int64      `json:"collectives"`
}

func (p *InfoPart) Add(l *stages.Line) {
	p.Info.Add("", l.N, l.Text, l.P)
	if !p.portable {
		return
	}
	switch l.P.Kind {
	case parser.KindCollective:
		p.coll++
		return
	case parser.KindOther, parser.KindVersion:
		if parser.Message(l.Text, l.P) == nil {
			return // not a version line: info takes nothing from it
		}
	}
	p.kept.Add(InfoLine{Line: l.N, Text: string(l.Text)})
}

// Portable is the lines kept for a partial result.
func (p *InfoPart) Portable() any { return InfoPortable{Lines: p.kept.Items, Collectives: p.coll} }

// Restore reads a partial result's lines again, in order.
func (p *InfoPart) Restore(dec *json.Decoder, lim *stages.Limits) error {
	var v InfoPortable
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if err := stages.CheckCount("its count of collective lines", v.Collectives); err != nil {
		return err
	}
	ps, err := lim.LineParser()
	if err != nil {
		return err
	}
	p.Reset()
	var l parser.Line
	for _, k := range v.Lines {
		ps.Parse([]byte(k.Text), &l)
		p.Info.Add(k.File, k.Line, []byte(k.Text), &l)
	}
	p.Info.counts.NCCL += v.Collectives
	p.Info.counts.Coll += v.Collectives
	p.kept.Items, p.kept.Anchored, p.coll = v.Lines, len(v.Lines), v.Collectives
	return nil
}

func (p *InfoPart) Settle(int64, bool) {}

// Anchor names the file of the evidence added since the last Anchor and makes its line
// numbers absolute (evidence already anchored has a file).
func (p *InfoPart) Anchor(o stages.Origin) {
	p.Info.Rebase(o.File, o.Base)
	p.kept.Anchor(o)
}

func (p *InfoPart) Merge(o stages.Partial) {
	op := o.(*InfoPart)
	p.Info.Merge(op.Info)
	p.kept.Merge(&op.kept)
	p.coll += op.coll
}

func (p *InfoPart) Reset() {
	p.Info = NewInfo()
	p.kept.Reset()
	p.coll = 0
}

// Snapshot is the report; computing it files the error chains still open, which a second
// report would have filed the same way.
func (p *InfoPart) Snapshot() any { return p.Info.Report() }

// InfoOf returns the set-up facts of s (empty where the run had no info stage).
func InfoOf(s *stages.Set) *Info {
	if p, ok := stages.Part[*InfoPart](s); ok {
		return p.Info
	}
	return NewInfo()
}

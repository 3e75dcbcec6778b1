package stages

import (
	"encoding/json"

	"github.com/nccllog/nccllog/parser"
)

// InfoStage reads the set-up lines: versions, network and transports, environment, tuning,
// init timings and WARNs, to find the ranks that differ (info). Set-up belongs to no step:
// every line counts, selected or not.
type InfoStage struct{}

func (InfoStage) Name() string { return "info" }
func (InfoStage) Reads() Reads { return ReadsAll }
func (InfoStage) Kinds() KindSet {
	return Kinds(parser.KindCollective, parser.KindComm, parser.KindVersion, parser.KindOther,
		parser.KindWarn, parser.KindInfo, parser.KindTrace)
}

func (InfoStage) New(cfg *Config) Partial { return &InfoPart{Info: NewInfo(), portable: cfg.Portable} }

// InfoPart is the info stage's Partial. Where the run writes a partial result it also keeps
// the set-up lines themselves: what Info concludes from them depends on lines that may come
// later (a thread's Init COMPLETE, another rank's facts), so the partial result holds the
// lines, which are a small part of a log, and reading it reads them again.
type InfoPart struct {
	*Info
	portable bool
	kept     held[InfoLine, *InfoLine]
	coll     int64 // collective lines (only counted)
}

// InfoLine is a set-up line kept for a partial result.
type InfoLine struct {
	File string `json:"f"`
	Line int64  `json:"l"`
	Text string `json:"t"`
}

func (l *InfoLine) settle(int64) {}

func (l *InfoLine) anchor(file string, base int64) { l.File, l.Line = file, l.Line+base }

// InfoPortable is the partial-result form of info: its lines, and how many collective lines
// there were.
type InfoPortable struct {
	Lines       []InfoLine `json:"lines"`
	Collectives int64      `json:"collectives"`
}

func (p *InfoPart) Add(l *Line) {
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
	p.kept.add(InfoLine{Line: l.N, Text: string(l.Text)})
}

// Portable is the lines kept for a partial result.
func (p *InfoPart) Portable() any { return InfoPortable{Lines: p.kept.items, Collectives: p.coll} }

// Restore reads a partial result's lines again, in order.
func (p *InfoPart) Restore(dec *json.Decoder, lim *Limits) error {
	var v InfoPortable
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if err := checkCount("its count of collective lines", v.Collectives); err != nil {
		return err
	}
	ps, err := lim.lineParser()
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
	p.kept.items, p.kept.anchored, p.coll = v.Lines, len(v.Lines), v.Collectives
	return nil
}

func (p *InfoPart) Settle(int64, bool) {}

// Anchor names the file of the evidence added since the last Anchor and makes its line
// numbers absolute (evidence already anchored has a file).
func (p *InfoPart) Anchor(o Origin) {
	p.Info.Rebase(o.File, o.Base)
	p.kept.anchor(o)
}

func (p *InfoPart) Merge(o Partial) {
	op := o.(*InfoPart)
	p.Info.Merge(op.Info)
	p.kept.merge(&op.kept)
	p.coll += op.coll
}

func (p *InfoPart) Reset() {
	p.Info = NewInfo()
	p.kept.reset()
	p.coll = 0
}

// Snapshot is the report; computing it files the error chains still open, which a second
// report would have filed the same way.
func (p *InfoPart) Snapshot() any { return p.Info.Report() }

// InfoOf returns the set-up facts of s (empty where the run had no info stage).
func InfoOf(s *Set) *Info {
	if p, ok := Part[*InfoPart](s); ok {
		return p.Info
	}
	return NewInfo()
}

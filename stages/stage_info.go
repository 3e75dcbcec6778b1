package stages

import "github.com/nccllog/nccllog/parser"

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

func (InfoStage) New(*Config) Partial { return &InfoPart{Info: NewInfo()} }

// InfoPart is the info stage's Partial.
type InfoPart struct{ *Info }

func (p *InfoPart) Add(l *Line) { p.Info.Add("", l.N, l.Text, l.P) }

func (p *InfoPart) Settle(int64, bool) {}

// Anchor names the file of the evidence added since the last Anchor and makes its line
// numbers absolute (evidence already anchored has a file).
func (p *InfoPart) Anchor(o Origin) { p.Info.Rebase(o.File, o.Base) }

func (p *InfoPart) Merge(o Partial) { p.Info.Merge(o.(*InfoPart).Info) }
func (p *InfoPart) Reset()          { p.Info = NewInfo() }

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

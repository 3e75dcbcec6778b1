package stages

import (
	"encoding/json"

	"github.com/nccllog/nccllog/parser"
)

// LinesStage accounts for every line of the input: each falls into exactly one class.
type LinesStage struct{}

func (LinesStage) Name() string   { return "lines" }
func (LinesStage) Reads() Reads   { return ReadsMarkers }
func (LinesStage) Kinds() KindSet { return AllKinds }

// New: where the run selects steps (and is not strict), the lines of the other steps (but
// their progress lines) are counted as unread, whether or not they were read: how many were
// read depends on where chunks end, and what they were is not the question asked.
func (LinesStage) New(cfg *Config) Partial {
	return &LinesPart{deferred: cfg.Steps != nil && !cfg.Strict}
}

// LinesPart is the lines stage's Partial: the settled lines' accounting, and where it waits
// for their step, that of the stretch being read.
type LinesPart struct {
	Lines
	open     Lines
	deferred bool
	anchored [2]int // Problems of Lines and open before these have their file and absolute line
}

// Add counts a line. Progress lines are always read (they say where steps are) and are
// counted as read whatever their step.
func (p *LinesPart) Add(l *Line) {
	to := &p.Lines
	if p.deferred && (l.P == nil || l.P.Kind != parser.KindProgress) {
		to = &p.open
	}
	if l.P == nil {
		to.Total += l.Unread
		to.Unread += l.Unread
		return
	}
	to.Add(l.N, l.Text, l.P)
}

// Settle counts the stretch's lines, or counts them unread where the run does not select
// their step.
func (p *LinesPart) Settle(_ int64, selected bool) {
	if !p.deferred {
		return
	}
	if selected {
		p.merge(&p.Lines, &p.open, 0, p.anchored[1])
	} else {
		p.Total += p.open.Total
		p.Unread += p.open.Total
	}
	p.open = Lines{Problems: p.open.Problems[:0]}
	p.anchored[1] = 0
}

func (p *LinesPart) Anchor(o Origin) {
	for k, l := range []*Lines{&p.Lines, &p.open} {
		for i := p.anchored[k]; i < len(l.Problems); i++ {
			l.Problems[i].File = o.File
			l.Problems[i].Line += o.Base
		}
		p.anchored[k] = len(l.Problems)
	}
}

// merge adds from to into, of which k is the index in anchored, keeping track of which
// Problems are anchored: from's first fromAnchored are.
func (p *LinesPart) merge(into, from *Lines, k, fromAnchored int) {
	whole := p.anchored[k] == len(into.Problems)
	into.Merge(from)
	if whole {
		p.anchored[k] = min(p.anchored[k]+fromAnchored, len(into.Problems))
	}
}

func (p *LinesPart) Merge(o Partial) {
	op := o.(*LinesPart)
	p.merge(&p.Lines, &op.Lines, 0, op.anchored[0])
	p.merge(&p.open, &op.open, 1, op.anchored[1])
}

func (p *LinesPart) Reset() {
	*p = LinesPart{Lines: Lines{Problems: p.Problems[:0]}, open: Lines{Problems: p.open.Problems[:0]}, deferred: p.deferred}
}

// LinesOf returns the line accounting of s.
func LinesOf(s *Set) *Lines {
	if p, ok := Part[*LinesPart](s); ok {
		return &p.Lines
	}
	return &Lines{}
}

func (p *LinesPart) Snapshot() any { return p.Lines }

func (p *LinesPart) Restore(dec *json.Decoder, _ *Limits) error {
	p.Reset()
	err := dec.Decode(&p.Lines)
	p.anchored[0] = len(p.Problems)
	if err != nil {
		return err
	}
	return checkLines(" in its line accounting", &p.Lines)
}

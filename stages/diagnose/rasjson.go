package diagnose

import (
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// RASField is one field line of the JSON form of an NCCL RAS report (`ncclras -f json`,
// parser.RASField): its key and value as printed. That form prints no verdicts, and each
// field is a line of its own, so no line proves anything alone: the Partial keeps the fields
// in input order, which merges exactly over any chunking (the first maxRASFields, the rest
// counted), and the Report folds them back into communicators (rasjson_fold.go).
type RASField struct {
	File string `json:"file"`
	Line int64  `json:"line"`
	Key  string `json:"key"`
	Val  string `json:"val"`
}

// maxRASFields bounds the RAS JSON fields a run keeps (about 7000 ranks' records, some
// MiB); maxRASVal a value (hashes, addresses and numbers are far shorter); maxRASKey a key
// a partial result may declare (the parser's longest is 19 bytes).
const (
	maxRASFields = 1 << 17
	maxRASVal    = 64
	maxRASKey    = 24
)

// addRAS keeps a RAS JSON field of line n, where there is room.
func (p *Part) addRAS(n int64, f *parser.Failure) {
	if len(p.ras) >= maxRASFields {
		p.rasLeft++
		return
	}
	v := f.Text
	if len(v) > maxRASVal {
		v = v[:maxRASVal]
	}
	p.ras = append(p.ras, RASField{Line: n, Key: f.Field, Val: v})
}

// anchorRAS names the file of the fields added since the last Anchor.
func (p *Part) anchorRAS(o stages.Origin) {
	for i := p.rasAnchored; i < len(p.ras); i++ {
		p.ras[i].File, p.ras[i].Line = o.File, p.ras[i].Line+o.Base
	}
	p.rasAnchored = len(p.ras)
}

// mergeRAS appends o's fields, those of the lines that follow, up to the cap.
func (p *Part) mergeRAS(op *Part) {
	whole := p.rasAnchored == len(p.ras)
	for i := range op.ras {
		if len(p.ras) >= maxRASFields {
			p.rasLeft += int64(len(op.ras) - i)
			break
		}
		p.ras = append(p.ras, op.ras[i])
		if whole && i < op.rasAnchored {
			p.rasAnchored++
		}
	}
	p.rasLeft += op.rasLeft
}

// checkRAS checks a partial result's RAS fields: within the caps, on lines of a file.
func checkRAS(e *Evidence) error {
	if len(e.RAS) > maxRASFields || e.RASLeft < 0 || (e.RASLeft > 0 && len(e.RAS) < maxRASFields) {
		return stages.Damaged("%d RAS JSON fields kept and %d left out, beyond the %d a run keeps or left out with room", len(e.RAS), e.RASLeft, maxRASFields)
	}
	for i := range e.RAS {
		f := &e.RAS[i]
		if f.Line < 0 || f.Key == "" || len(f.Key) > maxRASKey || len(f.Val) > maxRASVal {
			return stages.Damaged("RAS JSON field %d (%s:%d) is not one a run keeps", i, f.File, f.Line)
		}
	}
	return nil
}

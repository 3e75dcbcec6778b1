package diagnose

import (
	"encoding/json"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// DiagnoseStage gathers the failure evidence of a job. A failure belongs to no step: every
// line counts, selected or not.
type DiagnoseStage struct{}

func (DiagnoseStage) Name() string        { return "diagnose" }
func (DiagnoseStage) Reads() stages.Reads { return stages.ReadsAll }
func (DiagnoseStage) Kinds() stages.KindSet {
	// Other text: the line after an NCCL exception's `Last error:` holds NCCL's message.
	// Malformed: an NCCL WARN or frame whose envelope was cut off (unenveloped.go).
	return stages.Kinds(parser.KindFailure, parser.KindWarn, parser.KindWatchdog, parser.KindComm, parser.KindInfo, parser.KindOther, parser.KindMalformed)
}

func (DiagnoseStage) New(*stages.Config) stages.Partial { return newPart() }

// PartOf returns the diagnose Partial of s (an empty one where the run had none).
func PartOf(s *stages.Set) *Part {
	if p, ok := stages.Part[*Part](s); ok {
		return p
	}
	return newPart()
}

// Restore reads a partial result's evidence, checking what it declares.
func (p *Part) Restore(dec *json.Decoder, _ *stages.Limits) error {
	var e Evidence
	if err := dec.Decode(&e); err != nil {
		return err
	}
	if err := validate(&e); err != nil {
		return err
	}
	p.Reset()
	p.items, p.anchored, p.seen, p.commsLeft = e.Items, len(e.Items), e.Seen, e.CommsLeft
	p.ras, p.rasAnchored, p.rasLeft = e.RAS, len(e.RAS), e.RASLeft
	for _, c := range e.Counts {
		p.keys = append(p.keys, c.capKey)
		p.counts[c.capKey] = c.N
	}
	for _, c := range e.Comms {
		c.marks(func(*Mark) { c.lines++ })
		p.comms.put(c)
		p.states = append(p.states, c)
	}
	if e.Procs != nil {
		p.lone, p.loneSeen = *e.Procs, true
	}
	p.labelHosts = e.LabelHosts
	p.tb = restoredTB(e.Traceback)
	return p.restoreAddrs(e.Addrs, e.AddrsLeft)
}

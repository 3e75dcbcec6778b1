package htmlreport

import (
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/ranks"
)

// Alarm: hang has a suspect or check a disagreement, so the verdicts open the page in red. A
// healthy job's verdicts are shown plainly.
func (d *Data) Alarm() bool {
	return (d.Hang != nil && d.Hang.Found()) || (d.Check != nil && len(d.Check.Findings) > 0)
}

// Fault: diagnose found a fault, so its first fault and chain open the page in red.
func (d *Data) Fault() bool { return d.Diagnosis != nil && d.Diagnosis.Status == diagnose.StatusFault }

// DiagnosisChain is diagnose's first fault, the findings that follow from it and the others,
// as diagnose prints them.
type DiagnosisChain struct {
	First        *diagnose.Finding
	Then, Others []*diagnose.Finding
}

// Chain is the diagnosis as the page shows it.
func (d *Data) Chain() DiagnosisChain {
	if d.Diagnosis == nil {
		return DiagnosisChain{}
	}
	first, then, others := d.Diagnosis.Chain()
	return DiagnosisChain{first, then, others}
}

// Unproven is what made a diagnosis without a fault unknown (ranks behind, connects still
// retried), as diagnose's table lists it under the status; nil for a fault.
func (d *Data) Unproven() []*diagnose.Finding {
	if d.Diagnosis == nil || d.Fault() {
		return nil
	}
	out := make([]*diagnose.Finding, len(d.Diagnosis.Findings))
	for i := range d.Diagnosis.Findings {
		out[i] = &d.Diagnosis.Findings[i]
	}
	return out
}

// maxEvidence is how many evidence lines a finding shows, as diagnose's table prints them.
const maxEvidence = 3

// evidence is a finding's first evidence lines and how many more it has.
func evidence(f *diagnose.Finding) ([]diagnose.Ref, int) {
	if len(f.Evidence) <= maxEvidence {
		return f.Evidence, 0
	}
	return f.Evidence[:maxEvidence], len(f.Evidence) - maxEvidence
}

// HasVerdict: hang or check reported something to show, or said why not.
func (d *Data) HasVerdict() bool { return d.Hang != nil || d.Check != nil || len(d.VerdictNotes) > 0 }

// FullComms are the communicators the verdicts show in full, as hang does: those with a
// suspect, a note or no verdict.
func (d *Data) FullComms() []ranks.HangComm {
	var out []ranks.HangComm
	if d.Hang != nil {
		for _, c := range d.Hang.Comms {
			if !plainComm(&c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// PlainComms are the others, whose coverage line and verdict say it all: the page folds them.
func (d *Data) PlainComms() []ranks.HangComm {
	var out []ranks.HangComm
	if d.Hang != nil {
		for _, c := range d.Hang.Comms {
			if plainComm(&c) {
				out = append(out, c)
			}
		}
	}
	return out
}

func plainComm(c *ranks.HangComm) bool {
	return len(c.Suspects) == 0 && len(c.Coverage.Notes) == 0 && c.Coverage.Conflict == ""
}

// Cells of the set-up tables name at most cellRanges runs of ranks and cellHosts hosts, then
// how many in all, as info's table does.
const (
	cellRanges = 8
	cellHosts  = 4
)

// ranksCell is sorted ranks as runs, 0-6,8, cut after cellRanges runs.
func ranksCell(rs []int64) string {
	parts := ranks.RankRuns(rs)
	switch {
	case len(parts) == 0:
		return "-"
	case len(parts) <= cellRanges:
		return strings.Join(parts, ",")
	}
	return strings.Join(parts[:cellRanges], ",") + ",… (" + strconv.Itoa(len(rs)) + " ranks)"
}

// hostsCell lists hosts, cut after cellHosts.
func hostsCell(hs []string) string {
	if len(hs) <= cellHosts {
		return strings.Join(hs, ", ")
	}
	return strings.Join(hs[:cellHosts], ", ") + ", … (" + strconv.Itoa(len(hs)) + " hosts)"
}

// evidenceView is a finding's evidence lines the page shows, and how many it leaves out.
type evidenceView struct {
	Refs []diagnose.Ref
	More int
}

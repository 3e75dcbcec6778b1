package diff

import (
	"github.com/nccllog/nccllog/stages/diagnose"
	"github.com/nccllog/nccllog/stages/info"
)

// findings compares what went wrong: diagnose's status and first fault, then the WARN
// templates one run printed and the other did not (a template's count is not compared: a
// longer run repeats its WARNs more).
func findings(l *list, a, b *Side) {
	l.text("diagnose status", a.Diagnose.Status.String(), b.Diagnose.Status.String())
	l.text("first fault", firstFault(a.Diagnose), firstFault(b.Diagnose))
	wa, wb := warns(a.Info), warns(b.Info)
	for _, t := range onlyIn(wa, wb) {
		l.text("WARN gone", t, Absent)
	}
	for _, t := range onlyIn(wb, wa) {
		l.text("WARN new", Absent, t)
	}
}

// firstFault is the kind and summary of the first fault, or "none".
func firstFault(r diagnose.Report) string {
	if r.Status != diagnose.StatusFault || len(r.Findings) == 0 {
		return "none"
	}
	return r.Findings[0].Kind.String() + ": " + r.Findings[0].Summary
}

// warns is the WARN templates of a run, each with where it was printed from.
func warns(r *info.InfoReport) map[string]struct{} {
	s := map[string]struct{}{}
	for _, w := range r.Warns {
		s[w.Template] = struct{}{}
	}
	return s
}

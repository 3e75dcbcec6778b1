package main

import (
	"encoding/json"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// printDiagnose writes diagnose's report: the status, the first fault in one sentence, its
// consequences indented under it, then the other findings, each with its file:line evidence.
func printDiagnose(w *output, v *view) error {
	r := v.diagnosis()
	if v.opts.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // log text keeps its < and >
		return enc.Encode(r)
	}
	if r.Status != diagnose.StatusFault {
		w.printf("status: %s (%s)\n", r.Status.String(), r.Reason)
		for i := range r.Findings { // what made it unknown: ranks behind, retries
			w.printf("  %s\n", r.Findings[i].Summary)
			printDiagnoseFacts(w, &r.Findings[i], "    ")
		}
		return nil
	}
	first, then, others := r.Chain()
	w.printf("status: fault\n")
	w.printf("first fault: %s\n", first.Summary)
	printDiagnoseFacts(w, first, "  ")
	for _, f := range then {
		w.printf("  then: %s\n", f.Summary)
		printDiagnoseFacts(w, f, "    ")
	}
	if len(others) > 0 {
		w.printf("other findings:\n")
		for _, f := range others {
			w.printf("  %s\n", f.Summary)
			printDiagnoseFacts(w, f, "    ")
		}
	}
	if r.More > 0 {
		w.printf("(%s more findings not listed)\n", count(int64(r.More)))
	}
	if r.Left > 0 {
		w.printf("(%s more evidence lines of the same kinds were not kept)\n", count(r.Left))
	}
	return nil
}

// maxPrinted is how many evidence lines a finding prints in the table form (the JSON has
// every one kept).
const maxPrinted = 3

func printDiagnoseFacts(w *output, f *diagnose.Finding, indent string) {
	w.printf("%s[%s]\n", indent, f.Facts())
	for i, e := range f.Evidence {
		if i == maxPrinted {
			w.printf("%s  ... %d more\n", indent, len(f.Evidence)-maxPrinted)
			break
		}
		w.printf("%s  %s:%d: %s\n", indent, e.File, e.Line, e.Text)
	}
}

func diagnoseFound(v *view) bool { return v.diagnosis().Status == diagnose.StatusFault }

// diagnosis is the run's diagnose Report, built on first use: building it reads every
// communicator's calls twice over (check and hang), which costs as much as a second pass.
func (v *view) diagnosis() *diagnose.Report {
	if v.diag == nil {
		r := diagnose.Build(v.res.Set)
		v.diag = &r
	}
	return v.diag
}

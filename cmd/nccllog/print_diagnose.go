package main

import (
	"encoding/json"
	"strings"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// printDiagnose writes diagnose's report: the status, the first fault in one sentence, its
// consequences indented under it, then the other findings, each with its file:line evidence.
func printDiagnose(w *output, v *view) error {
	r := diagnose.Build(v.res.Set)
	if v.opts.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // log text keeps its < and >
		return enc.Encode(r)
	}
	if r.Status != diagnose.StatusFault {
		w.printf("status: %s (%s)\n", r.Status.String(), r.Reason)
		return nil
	}
	w.printf("status: fault\n")
	w.printf("first fault: %s\n", r.Findings[0].Summary)
	printDiagnoseFacts(w, &r.Findings[0], "  ")
	others := false
	for i := 1; i < len(r.Findings); i++ {
		f := &r.Findings[i]
		if f.Follows == nil {
			others = true
			continue
		}
		w.printf("  then: %s\n", f.Summary)
		printDiagnoseFacts(w, f, "    ")
	}
	if others {
		w.printf("other findings:\n")
		for i := 1; i < len(r.Findings); i++ {
			if f := &r.Findings[i]; f.Follows == nil {
				w.printf("  %s\n", f.Summary)
				printDiagnoseFacts(w, f, "    ")
			}
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
	var facts []string
	facts = append(facts, f.Kind.String())
	if f.Shared {
		facts = append(facts, "shared by every rank")
	}
	if f.Time != "" {
		t := "at " + f.Time
		if f.TimeNote != "" {
			t += " (" + f.TimeNote + ")"
		}
		facts = append(facts, t)
	}
	if f.Comm != "" {
		facts = append(facts, "comm "+f.Comm)
	}
	w.printf("%s[%s]\n", indent, strings.Join(facts, ", "))
	for i, e := range f.Evidence {
		if i == maxPrinted {
			w.printf("%s  ... %d more\n", indent, len(f.Evidence)-maxPrinted)
			break
		}
		w.printf("%s  %s:%d: %s\n", indent, e.File, e.Line, e.Text)
	}
}

func diagnoseFound(v *view) bool { return diagnose.Build(v.res.Set).Status == diagnose.StatusFault }

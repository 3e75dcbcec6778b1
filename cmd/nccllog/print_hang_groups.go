package main

import (
	"strings"

	"github.com/nccllog/nccllog/stages/ranks"
)

// shownComms is how many communicators a grouped line names; JSON names them all.
const shownComms = 4

// healthyGroup is the communicators that one line stands for: the same coverage and verdict
// once each one's label is left out.
type healthyGroup struct {
	text   string
	labels []string
}

// printHealthy prints the communicators of a job where no rank is a suspect: one line per
// group of communicators that say the same thing, and in full those that carry a note (a log
// of some nodes, an excerpt, no verdict), where the note is the finding.
func printHealthy(w *output, findings []ranks.HangFinding) {
	groups := map[string]*healthyGroup{}
	for _, f := range findings {
		if plainFinding(f) {
			t := healthyText(f)
			if groups[t] == nil {
				groups[t] = &healthyGroup{text: t}
			}
			groups[t].labels = append(groups[t].labels, commLabel(f.Group))
		}
	}
	blank, printed := false, map[*healthyGroup]bool{}
	for _, f := range findings {
		if !plainFinding(f) {
			if blank {
				w.printf("\n")
			}
			printHangFinding(w, f)
			blank = false
			continue
		}
		if g := groups[healthyText(f)]; !printed[g] {
			w.printf("%s\n", g.line())
			printed[g], blank = true, true
		}
	}
	if blank {
		w.printf("\n")
	}
}

// plainFinding: the communicator has no suspect and no note, so its verdict says it all.
func plainFinding(f ranks.HangFinding) bool {
	return len(f.Suspects) == 0 && len(coverageNotes(f.Coverage, f.Group)) == 0
}

// healthyText is the communicator's coverage line and verdict without its label.
func healthyText(f ranks.HangFinding) string {
	line := coverageLine(f.Coverage, f.Group)
	return strings.TrimPrefix(line, "comm "+commLabel(f.Group)+": ") + "; " + hangVerdict(f)
}

// line is "comm X: text" for one communicator, "3 comms (X, Y, Z): text" for more, naming
// the first few.
func (g *healthyGroup) line() string {
	if len(g.labels) == 1 {
		return "comm " + g.labels[0] + ": " + g.text
	}
	names := strings.Join(g.labels[:min(len(g.labels), shownComms)], ", ")
	if n := len(g.labels) - shownComms; n > 0 {
		names += " and " + itoa(int64(n)) + " more"
	}
	return itoa(int64(len(g.labels))) + " comms (" + names + "), each: " + g.text
}

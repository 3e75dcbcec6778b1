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
func printHealthy(w *output, comms []ranks.HangComm) {
	groups := map[string]*healthyGroup{}
	for i := range comms {
		if c := &comms[i]; plainComm(c) {
			t := healthyText(c)
			if groups[t] == nil {
				groups[t] = &healthyGroup{text: t}
			}
			groups[t].labels = append(groups[t].labels, c.Comm)
		}
	}
	blank, printed := false, map[*healthyGroup]bool{}
	for i := range comms {
		c := &comms[i]
		if !plainComm(c) {
			if blank {
				w.printf("\n")
			}
			printHangComm(w, c)
			blank = false
			continue
		}
		if g := groups[healthyText(c)]; !printed[g] {
			w.printf("%s\n", g.line())
			printed[g], blank = true, true
		}
	}
	if blank {
		w.printf("\n")
	}
}

// plainComm: the communicator has no suspect and no note, so its verdict says it all.
func plainComm(c *ranks.HangComm) bool {
	return len(c.Suspects) == 0 && len(c.Coverage.Notes) == 0
}

// healthyText is the communicator's coverage line and verdict without its label.
func healthyText(c *ranks.HangComm) string {
	return strings.TrimPrefix(c.Coverage.Line, "comm "+c.Comm+": ") + "; " + c.Verdict
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

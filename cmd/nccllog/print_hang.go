package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages/ranks"
)

// evidenceText says in words why a rank is a suspect.
func evidenceText(s ranks.Suspect, f ranks.HangFinding) []string {
	if s.Absent {
		return []string{absentText(s, f)}
	}
	m := s.Member
	var out []string
	for _, e := range s.Evidence {
		switch e {
		case ranks.EvBehind:
			out = append(out, behindText(s, f))
		case ranks.EvAbort:
			out = append(out, "its communicator ends in Abort")
		case ranks.EvEndedEarly:
			out = append(out, "its communicator ends in "+m.End+" while other ranks' do not")
		case ranks.EvWarn:
			out = append(out, fmt.Sprintf("its process WARNed (%s:%d): %s", m.File, m.WarnLine, m.Warn))
		case ranks.EvEndsInWarn:
			out = append(out, fmt.Sprintf("its log ends in a WARN after its last call (%s:%d): %s", m.File, m.WarnLine, m.Warn))
		}
	}
	return out
}

// behindText says how far a rank got, its last call and the call it never issued.
func behindText(s ranks.Suspect, f ranks.HangFinding) string {
	m := s.Member
	t := fmt.Sprintf("issued %s, %s fewer than the furthest rank got (%s)", calls(m.Calls), count(s.Behind), count(f.MaxCalls))
	if m.Start > 0 {
		t = fmt.Sprintf("issued %s from call %d on, stopping %s before the furthest rank (call %d)",
			calls(m.Calls), m.Start, calls(s.Behind), f.MaxCalls-1)
	}
	if m.Calls > 0 {
		t += fmt.Sprintf("; last: call %d %s (%s:%d%s)", m.Through()-1, sigText(m.Last), m.File, m.LastLine,
			withStep(max(m.LastStep, f.Group.StepOf(m.Through()-1))))
	}
	if s.Next.Op != "" {
		t += fmt.Sprintf("; never issued call %d: %s%s", m.Through(), sigText(s.Next), withStep(s.NextStep))
	}
	return t
}

// absentText says why ranks without lines are suspects.
func absentText(s ranks.Suspect, f ranks.HangFinding) string {
	who := fmt.Sprintf("no line from rank %d at all", s.Rank)
	if s.Rank < 0 {
		who = fmt.Sprintf("no line from %d of its ranks at all (their numbers are not known)", s.Ranks)
	}
	return fmt.Sprintf("%s, while the ranks that got furthest stopped together at call %d: its log is missing or the process died before it logged this communicator",
		who, f.MaxCalls-1)
}

func judgedAbsent(c ranks.Coverage) int64 {
	_, n := c.JudgedAbsent()
	return n
}

// hasHave is "1 rank has" or "3 ranks have".
func hasHave(n int64) string {
	if n == 1 {
		return "1 rank has"
	}
	return count(n) + " ranks have"
}

func withStep(s int64) string {
	if s < 0 {
		return ""
	}
	return ", step " + itoa(s)
}

type suspectJSON struct {
	Rank     *int64   `json:"rank"`
	Host     string   `json:"host,omitempty"`
	Pid      int64    `json:"pid,omitempty"`
	Score    int      `json:"score"`
	Calls    int64    `json:"calls"`
	Behind   int64    `json:"behind"`
	Absent   bool     `json:"absent"`
	Last     *sigJSON `json:"last_call"`
	LastStep *int64   `json:"last_step"`
	Next     *sigJSON `json:"never_issued"`
	Evidence []string `json:"evidence"`
}

func suspectValue(s ranks.Suspect, f ranks.HangFinding) suspectJSON {
	v := suspectJSON{Rank: known(s.Rank), Score: s.Score, Behind: s.Behind, Absent: s.Absent, Evidence: evidenceText(s, f)}
	if m := s.Member; m != nil {
		v.Host, v.Pid, v.Calls, v.LastStep = m.Host, m.Pid, m.Calls, known(m.LastStep)
		if m.Calls > 0 {
			l := sigValue(m.Last)
			v.Last = &l
		}
	}
	if s.Next.Op != "" {
		n := sigValue(s.Next)
		v.Next = &n
	}
	return v
}

func printHang(w *output, r *view) error {
	findings, pgs := r.ranks.Hang(), r.ranks.PGHang()
	found := suspects(findings)+pgSuspects(pgs) > 0
	switch r.opts.format {
	case "json":
		return hangJSONOut(w, findings, pgs, overflowValue(r.ranks))
	case "csv":
		return hangCSV(w, findings, pgs)
	}
	if len(pgs) == 0 && noRanks(w, r.ranks.Groups()) {
		return nil
	}
	if found {
		for _, f := range findings {
			printHangFinding(w, f)
		}
	} else {
		printHealthy(w, findings)
	}
	for _, f := range pgs {
		printPGFinding(w, f)
	}
	if legend := scoreLegend(suspects(findings), pgSuspects(pgs)); legend != "" {
		w.printf("%s\n", legend)
	}
	refused := 0
	for _, f := range findings {
		if f.Coverage.Conflict != "" || f.Coverage.Truncated {
			refused++
		}
	}
	switch {
	case !found && refused > 0:
		w.printf("no verdict for %s (see above); nothing else points to a hang.\n", plural(int64(refused), "communicator"))
	case !found && len(findings) == 0:
		w.printf("nothing points to a hang in any process group.\n")
	case !found:
		w.printf("nothing points to a hang in any communicator.\n")
	}
	return nil
}

func hangJSONOut(w *output, findings []ranks.HangFinding, pgs []ranks.PGFinding, over *overflowJSON) error {
	type commJSON struct {
		Comm      string        `json:"comm"`
		NRanks    int64         `json:"nranks"`
		RanksSeen int64         `json:"ranks_seen"`
		MaxCalls  int64         `json:"max_calls"`
		Grouping  string        `json:"grouping"`
		Coverage  coverageJSON  `json:"coverage"`
		Verdict   string        `json:"verdict"`
		Suspects  []suspectJSON `json:"suspects"`
	}
	comms := []commJSON{}
	for _, f := range findings {
		var ss []suspectJSON
		for _, s := range f.Suspects {
			ss = append(ss, suspectValue(s, f))
		}
		comms = append(comms, commJSON{commLabel(f.Group), f.Group.NRanks, f.Present, f.MaxCalls, f.Group.Evidence.String(),
			coverageValue(f.Coverage, f.Group), hangVerdict(f), orEmpty(ss)})
	}
	out := struct {
		Comms []commJSON `json:"comms"`
		// PGs are the PyTorch process groups the watchdog lines name; left out without them.
		PGs []pgJSON `json:"process_groups,omitempty"`
		// Overflow sums the communicators past the cap, not judged; left out where there are none.
		Overflow *overflowJSON `json:"overflow,omitempty"`
	}{Comms: comms, Overflow: over}
	for _, f := range pgs {
		out.PGs = append(out.PGs, pgValue(f))
	}
	return writeJSON(w, out)
}

// printHangFinding prints what the input holds of one communicator, then its suspects.
func printHangFinding(w *output, f ranks.HangFinding) {
	w.printf("%s\n", coverageLine(f.Coverage, f.Group))
	for _, n := range coverageNotes(f.Coverage, f.Group) {
		w.printf("  note: %s\n", n)
	}
	if len(f.Suspects) == 0 {
		w.printf("  %s\n\n", hangVerdict(f))
		return
	}
	for i, s := range f.Suspects {
		who := "rank " + itoa(s.Rank)
		switch {
		case s.Member != nil && s.Member.Rank < 0:
			who = "process " + s.Member.Label()
		case s.Member != nil:
			who = "rank " + s.Member.Label() + " (" + s.Member.Host + ":" + itoa(s.Member.Pid) + ")"
		case s.Rank < 0:
			who = plural(s.Ranks, "rank") + " without lines"
		}
		w.printf("  %d. %s, score %d\n", i+1, who, s.Score)
		for _, e := range evidenceText(s, f) {
			w.printf("       %s\n", e)
		}
	}
	w.printf("\n")
}

// scoreLegend says once, under the suspects, what their scores add up (stages/hang.go and
// stages/pg_hang.go give the weights): for communicators' suspects, for process groups'
// suspects, or both; "" where no score was printed.
func scoreLegend(comm, pg int) string {
	const (
		commText = "no lines 100; behind 50-90, the further the more; Abort 60; log ends in a WARN 40; Destroy early 30; with these, any WARN +15"
		pgText   = "watchdog: never reached the work 90, no watchdog line 70, NCCL calls behind +10"
	)
	var parts []string
	if comm > 0 {
		parts = append(parts, commText)
	}
	if pg > 0 {
		parts = append(parts, pgText)
	}
	if len(parts) == 0 {
		return ""
	}
	return "score: the sum of the weights of a rank's evidence (" + strings.Join(parts, "; ") + "); it only orders the suspects."
}

// hangVerdict says in one sentence what the communicator's ranks show.
func hangVerdict(f ranks.HangFinding) string {
	c := f.Coverage
	switch {
	case c.Conflict != "":
		return "no verdict: these are not the ranks of one communicator"
	case len(f.Suspects) > 0:
		if len(f.Suspects) == 1 {
			return "1 suspect stands out"
		}
		return itoa(int64(len(f.Suspects))) + " suspects stand out"
	case f.MaxCalls == 0:
		return "no rank with lines issued a call on it; nothing to judge"
	case c.EndsCut && c.CutWhy == ranks.CutExcerpt:
		return "no rank stands out: the ranks stop at different calls only where the excerpt cuts them"
	case c.EndsCut:
		return "no rank stands out: the ranks stop a few calls apart where the log ends, as a job that still issued calls does"
	case judgedAbsent(c) > 0 && !f.WaitedOn:
		return fmt.Sprintf("no rank stands out; %s no lines, but the ranks with lines did not all stop at one call, so nothing shows they waited for the others",
			hasHave(judgedAbsent(c)))
	case c.SomeNodes():
		return fmt.Sprintf("every rank with lines got to call %d; the ranks of the nodes this log does not cover are not judged", f.MaxCalls-1)
	}
	return fmt.Sprintf("every rank with lines got to call %d; none is behind, and none aborted alone", f.MaxCalls-1)
}

func suspects(fs []ranks.HangFinding) int {
	n := 0
	for _, f := range fs {
		n += len(f.Suspects)
	}
	return n
}

// hangCSV writes one row per suspect, those of the process groups last.
func hangCSV(w *output, findings []ranks.HangFinding, pgs []ranks.PGFinding) error {
	var rows [][]string
	for _, f := range findings {
		for _, s := range f.Suspects {
			v := suspectValue(s, f)
			last, next := "", ""
			if v.Last != nil {
				last = sigText(s.Member.Last)
			}
			if v.Next != nil {
				next = sigText(s.Next)
			}
			rows = append(rows, []string{commLabel(f.Group), itoa(f.Group.NRanks), optInt(v.Rank), v.Host,
				itoa(v.Pid), itoa(int64(v.Score)), itoa(v.Calls), itoa(v.Behind), strconv.FormatBool(v.Absent),
				last, next, strings.Join(v.Evidence, "; ")})
		}
	}
	rows = append(rows, pgCSVRows(pgs)...)
	return writeCSV(w, []string{"comm", "nranks", "rank", "host", "pid", "score", "calls", "behind", "absent",
		"last_call", "never_issued", "evidence"}, rows)
}

// hangFound: some rank is a suspect.
func hangFound(v *view) bool { return suspects(v.ranks.Hang())+pgSuspects(v.ranks.PGHang()) > 0 }

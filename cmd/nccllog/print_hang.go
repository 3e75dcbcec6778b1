package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages"
)

// evidenceText says in words why a rank is a suspect.
func evidenceText(s stages.Suspect, f stages.HangFinding) []string {
	if s.Absent {
		return []string{fmt.Sprintf("no line from rank %d at all: its log is missing or the process died before it logged this communicator", s.Rank)}
	}
	m := s.Member
	var out []string
	for _, e := range s.Evidence {
		switch e {
		case "behind":
			t := fmt.Sprintf("issued %s calls, %s fewer than the most any rank did (%s)", count(m.Calls), count(s.Behind), count(f.MaxCalls))
			if m.Calls > 0 {
				t += fmt.Sprintf("; last: call %d %s (%s:%d%s)", m.Calls-1, sigText(m.Last), m.File, m.LastLine,
					withStep(max(m.LastStep, f.Group.StepOf(m.Calls-1))))
			}
			if s.Next.Op != "" {
				t += fmt.Sprintf("; never issued call %d: %s%s", m.Calls, sigText(s.Next), withStep(s.NextStep))
			}
			out = append(out, t)
		case "abort":
			out = append(out, "its communicator ends in Abort")
		case "ended-early":
			out = append(out, "its communicator ends in "+m.End+" while other ranks' do not")
		case "warn":
			out = append(out, fmt.Sprintf("its process WARNed (%s:%d): %s", m.File, m.WarnLine, m.Warn))
		case "ends-in-warn":
			out = append(out, fmt.Sprintf("its log ends in a WARN after its last call (%s:%d): %s", m.File, m.WarnLine, m.Warn))
		}
	}
	return out
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

func suspectValue(s stages.Suspect, f stages.HangFinding) suspectJSON {
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
	findings := r.ranks.Hang()
	found := suspects(findings) > 0
	switch r.opts.format {
	case "json":
		var comms []map[string]any
		for _, f := range findings {
			var ss []suspectJSON
			for _, s := range f.Suspects {
				ss = append(ss, suspectValue(s, f))
			}
			comms = append(comms, map[string]any{"comm": commLabel(f.Group), "nranks": f.Group.NRanks,
				"ranks_seen": f.Present, "max_calls": f.MaxCalls, "grouping": f.Group.Evidence, "suspects": orEmpty(ss)})
		}
		return writeJSON(w, map[string]any{"comms": orEmpty(comms)})
	case "csv":
		return hangCSV(w, findings)
	}
	if noRanks(w, r.ranks.Groups()) {
		return nil
	}
	for _, f := range findings {
		w.printf("comm %s: %d ranks, %d with lines, at most %s per rank\n", commLabel(f.Group), f.Group.NRanks, f.Present, calls(f.MaxCalls))
		if len(f.Suspects) == 0 {
			w.printf("  every rank issued %s calls; none aborted or is missing\n\n", count(f.MaxCalls))
			continue
		}
		for i, s := range f.Suspects {
			who := "rank " + itoa(s.Rank)
			if s.Member != nil {
				who = "rank " + s.Member.Label() + " (" + s.Member.Host + ":" + itoa(s.Member.Pid) + ")"
			}
			w.printf("  %d. %s, score %d\n", i+1, who, s.Score)
			for _, e := range evidenceText(s, f) {
				w.printf("       %s\n", e)
			}
		}
		w.printf("\n")
	}
	if !found {
		w.printf("nothing points to a hang: every rank of every communicator issued the same number of calls.\n")
	}
	return nil
}

// hangFound: some rank is a suspect.
func hangFound(v *view) bool { return suspects(v.ranks.Hang()) > 0 }

func suspects(fs []stages.HangFinding) int {
	n := 0
	for _, f := range fs {
		n += len(f.Suspects)
	}
	return n
}

// hangCSV writes one row per suspect.
func hangCSV(w *output, findings []stages.HangFinding) error {
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
	return writeCSV(w, []string{"comm", "nranks", "rank", "host", "pid", "score", "calls", "behind", "absent",
		"last_call", "never_issued", "evidence"}, rows)
}

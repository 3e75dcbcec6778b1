package ranks

import (
	"fmt"
	"strings"
)

// HangReport is hang's answer: per communicator, its coverage, verdict and suspects; the
// PyTorch process groups the watchdog lines name; the communicators past the cap. Its JSON
// is hang's (the README's schema).
type HangReport struct {
	Comms []HangComm `json:"comms"`
	// PGs are the PyTorch process groups the watchdog lines name; left out without them.
	PGs []PGReport `json:"process_groups,omitempty"`
	// Overflow sums the communicators past the cap, not judged; left out where there are none.
	Overflow *OverflowReport `json:"overflow,omitempty"`
	// Suspects and PGSuspects count the suspects of the communicators and of the process
	// groups; Refused the communicators with no verdict (not one communicator, or truncated).
	Suspects, PGSuspects, Refused int `json:"-"`
	// Stalls counts the suspects whose calls stalled (the legend names that weight then).
	Stalls int `json:"-"`
}

// HangComm is one communicator's coverage, verdict and suspects.
type HangComm struct {
	Comm      string          `json:"comm"`
	NRanks    int64           `json:"nranks"`
	RanksSeen int64           `json:"ranks_seen"`
	MaxCalls  int64           `json:"max_calls"`
	Grouping  Grouping        `json:"grouping"`
	Coverage  CoverageReport  `json:"coverage"`
	Verdict   string          `json:"verdict"`
	Suspects  []SuspectReport `json:"suspects"`
}

// SuspectReport is one suspect of a communicator, with its evidence in words.
type SuspectReport struct {
	Rank     *int64     `json:"rank"`
	Host     string     `json:"host,omitempty"`
	Pid      int64      `json:"pid,omitempty"`
	Score    int        `json:"score"`
	Calls    int64      `json:"calls"`
	Behind   int64      `json:"behind"`
	Absent   bool       `json:"absent"`
	Last     *SigReport `json:"last_call"`
	LastStep *int64     `json:"last_step"`
	Next     *SigReport `json:"never_issued"`
	Evidence []string   `json:"evidence"`
	// Who names it in hang's list and the HTML page's: "rank 3 (node1:1234)", "process
	// node1:1234/dev2", "2 ranks without lines".
	Who string `json:"-"`
}

// HangReport is what hang prints, from the merged ranks.
func (r *Ranks) HangReport() HangReport {
	r.settle()
	findings, pgs := r.Hang(), r.PGHang()
	out := HangReport{Comms: []HangComm{}, Overflow: r.OverflowReport()}
	for _, f := range findings {
		out.Comms = append(out.Comms, hangComm(f))
		out.Suspects += len(f.Suspects)
		for _, s := range f.Suspects {
			if s.Stall.Kind == Stalled {
				out.Stalls++
			}
		}
		if f.Coverage.Conflict != "" || f.Coverage.Truncated {
			out.Refused++
		}
	}
	for _, f := range pgs {
		out.PGs = append(out.PGs, pgReport(f))
		out.PGSuspects += len(f.Suspects)
	}
	return out
}

// Found reports whether some rank is a suspect (hang's exit code).
func (h *HangReport) Found() bool { return h.Suspects+h.PGSuspects > 0 }

func hangComm(f HangFinding) HangComm {
	ss := []SuspectReport{}
	for _, s := range f.Suspects {
		ss = append(ss, suspectReport(s, f))
	}
	return HangComm{f.Group.Label(), f.Group.NRanks, f.Present, f.MaxCalls, f.Group.Evidence,
		coverageReport(f.Coverage, f.Group), hangVerdict(f), ss}
}

func suspectReport(s Suspect, f HangFinding) SuspectReport {
	v := SuspectReport{Rank: known(s.Rank), Score: s.Score, Behind: s.Behind, Absent: s.Absent,
		Evidence: evidenceText(s, f), Who: suspectWho(s)}
	if m := s.Member; m != nil {
		v.Host, v.Pid, v.Calls, v.LastStep = m.Host, m.Pid, m.Calls, known(m.LastStep())
		v.Last = sigReportOf(m.Last(), m.Calls > 0)
	}
	v.Next = sigReportOf(s.Next, true)
	return v
}

// suspectWho names a suspect in hang's list.
func suspectWho(s Suspect) string {
	switch {
	case s.Member != nil && s.Member.Rank < 0:
		return "process " + s.Member.Label()
	case s.Member != nil:
		return "rank " + s.Member.Label() + " (" + s.Member.Host + ":" + itoa(s.Member.Pid) + ")"
	case s.Rank < 0:
		return plural(s.Ranks, "rank") + " without lines"
	}
	return "rank " + itoa(s.Rank)
}

// ScoreLegend says once, under the suspects, what their scores add up (hang.go and
// pg_hang.go give the weights): for communicators' suspects, for process groups' suspects,
// or both; "" where no score was printed.
func (h *HangReport) ScoreLegend() string {
	const (
		commText = "no lines 100; behind 50-90, the further the more; Abort 60; log ends in a WARN 40; Destroy early 30; with these, any WARN +15"
		pgText   = "watchdog: never reached the work 90, no watchdog line 70, NCCL calls behind +10"
	)
	var parts []string
	if h.Suspects > 0 && h.Stalls > 0 {
		parts = append(parts, strings.Replace(commText, "; Destroy early 30", "; Destroy early 30; calls stalled +30", 1))
	} else if h.Suspects > 0 {
		parts = append(parts, commText)
	}
	if h.PGSuspects > 0 {
		parts = append(parts, pgText)
	}
	if len(parts) == 0 {
		return ""
	}
	return "score: the sum of the weights of a rank's evidence (" + strings.Join(parts, "; ") + "); it only orders the suspects."
}

// Closing is hang's last sentence where no rank is a suspect, "" where some is.
func (h *HangReport) Closing() string {
	switch {
	case h.Found():
		return ""
	case h.timedOut() > 0:
		// The job did hang: the watchdogs say so, though no rank stands out.
		return plural(int64(h.timedOut()), "rank") + " timed out and none stands out (see above): the job hung; " +
			"what caused it: nccllog diagnose"
	case h.Refused > 0:
		return fmt.Sprintf("no verdict for %s (see above); nothing else points to a hang.", plural(int64(h.Refused), "communicator"))
	case len(h.Comms) == 0:
		return "nothing points to a hang in any process group."
	}
	return "nothing points to a hang in any communicator."
}

// timedOut is how many ranks of the process groups timed out.
func (h *HangReport) timedOut() int {
	n := 0
	for _, g := range h.PGs {
		n += g.TimedOut
	}
	return n
}

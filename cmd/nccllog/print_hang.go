package main

import (
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages/ranks"
)

func printHang(w *output, r *view) error {
	h := r.hangReport()
	switch r.opts.format {
	case "json":
		return writeJSON(w, h)
	case "csv":
		return hangCSV(w, h)
	}
	if len(h.PGs) == 0 && len(h.Comms) == 0 { // a hang row per communicator: none had ranks
		w.printf("%s\n%s\n", noRanksText, diagnoseHint)
		return nil
	}
	if h.Found() {
		for i := range h.Comms {
			printHangComm(w, &h.Comms[i])
		}
	} else {
		printHealthy(w, h.Comms)
	}
	for i := range h.PGs {
		printPG(w, &h.PGs[i])
	}
	if legend := h.ScoreLegend(); legend != "" {
		w.printf("%s\n", legend)
	}
	if c := h.Closing(); c != "" {
		w.printf("%s\n", c)
	}
	return nil
}

// printHangComm prints what the input holds of one communicator, then its suspects.
func printHangComm(w *output, c *ranks.HangComm) {
	w.printf("%s\n", c.Coverage.Line)
	for _, n := range c.Coverage.Notes {
		w.printf("  note: %s\n", n)
	}
	if len(c.Suspects) == 0 {
		w.printf("  %s\n\n", c.Verdict)
		return
	}
	for i, s := range c.Suspects {
		w.printf("  %d. %s, score %d\n", i+1, s.Who, s.Score)
		for _, e := range s.Evidence {
			w.printf("       %s\n", e)
		}
	}
	w.printf("\n")
}

// hangCSV writes one row per suspect, those of the process groups last.
func hangCSV(w *output, h *ranks.HangReport) error {
	var rows [][]string
	for _, c := range h.Comms {
		for _, s := range c.Suspects {
			last, next := "", ""
			if s.Last != nil {
				last = s.Last.Text
			}
			if s.Next != nil {
				next = s.Next.Text
			}
			rows = append(rows, []string{c.Comm, itoa(c.NRanks), optInt(s.Rank), s.Host,
				itoa(s.Pid), itoa(int64(s.Score)), itoa(s.Calls), itoa(s.Behind), strconv.FormatBool(s.Absent),
				last, next, strings.Join(s.Evidence, "; ")})
		}
	}
	rows = append(rows, pgCSVRows(h.PGs)...)
	return writeCSV(w, []string{"comm", "nranks", "rank", "host", "pid", "score", "calls", "behind", "absent",
		"last_call", "never_issued", "evidence"}, rows)
}

// hangFound: some rank is a suspect.
func hangFound(v *view) bool {
	return v.hangReport().Found()
}

// hangReport is the run's hang report, built on first use: printing and the exit status read
// the same one.
func (v *view) hangReport() *ranks.HangReport {
	if v.hang == nil {
		h := v.ranks.HangReport()
		v.hang = &h
	}
	return v.hang
}

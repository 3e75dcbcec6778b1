package main

import (
	"strconv"
	"strings"

	"github.com/nccllog/nccllog/stages/ranks"
)

// printPG prints a process group's ranks, then its suspects or its verdict.
func printPG(w *output, p *ranks.PGReport) {
	w.printf("%s\n", p.Head)
	t := newTable(w, "  rank", "host:pid", "enqueued", "started", "completed", "timed out", "ran for ms", "state", "line")
	for _, r := range p.Ranks {
		t.row("  "+itoa(r.Rank), procText(r.Host, r.Pid), seqCell(r.LastEnqueued), seqCell(r.LastStarted),
			seqCell(r.LastCompleted), seqCell(r.TimedOut), seqCell(r.RanForMs), r.State.String(), r.Where)
	}
	t.flush()
	if len(p.Suspects) == 0 {
		w.printf("  %s\n\n", p.Verdict)
		return
	}
	for i, s := range p.Suspects {
		in := ""
		if s.Host != "" {
			in = " (" + procText(s.Host, s.Pid) + ")"
		}
		w.printf("  %d. rank %d%s, score %d\n", i+1, s.Rank, in, s.Score)
		for _, e := range s.Evidence {
			w.printf("       %s\n", e)
		}
	}
	w.printf("\n")
}

// seqCell is a work's number, "-" where none is known.
func seqCell(v *int64) string {
	if v == nil {
		return "-"
	}
	return itoa(*v)
}

func procText(host string, pid int64) string {
	if host == "" {
		return "-"
	}
	return host + ":" + itoa(pid)
}

// pgCSVRows are hang's CSV rows for the suspects of process groups: the comm column names
// the group, the columns that are about NCCL calls stay empty.
func pgCSVRows(pgs []ranks.PGReport) [][]string {
	var rows [][]string
	for _, p := range pgs {
		n := ""
		if p.NRanks != nil {
			n = itoa(*p.NRanks)
		}
		for _, s := range p.Suspects {
			pid := ""
			if s.Host != "" {
				pid = itoa(s.Pid)
			}
			rows = append(rows, []string{p.Label, n, itoa(s.Rank), s.Host, pid, itoa(int64(s.Score)),
				optInt(s.Calls), "", strconv.FormatBool(s.Absent), "", "", strings.Join(s.Evidence, "; ")})
		}
	}
	return rows
}

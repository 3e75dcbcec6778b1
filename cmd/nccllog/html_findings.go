package main

import (
	"fmt"

	"github.com/nccllog/nccllog/internal/htmlreport"
	"github.com/nccllog/nccllog/stages/ranks"
)

// hangFindings are hang's suspects, in the words hang prints.
func hangFindings(h ranks.HangReport) []htmlreport.Finding {
	var out []htmlreport.Finding
	for _, c := range h.Comms {
		for _, s := range c.Suspects {
			out = append(out, htmlreport.Finding{Kind: "hang", Comm: c.Comm,
				Summary: fmt.Sprintf("%s may have hung the job (score %d; %d ranks, %d with lines)", s.Name, s.Score, c.NRanks, c.RanksSeen),
				Details: s.Evidence})
		}
	}
	return out
}

// checkFindings are check's disagreements, in the words check prints.
func checkFindings(c ranks.CheckReport) []htmlreport.Finding {
	var out []htmlreport.Finding
	for _, f := range c.Findings {
		out = append(out, htmlreport.Finding{Kind: "check", Comm: f.Comm, Summary: f.Summary, Details: f.Details})
	}
	return out
}

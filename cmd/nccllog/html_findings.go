package main

import (
	"fmt"

	"github.com/nccllog/nccllog/internal/htmlreport"
	"github.com/nccllog/nccllog/stages/ranks"
)

// hangFindings are hang's suspects, in the words hang prints.
func hangFindings(fs []ranks.HangFinding) []htmlreport.Finding {
	var out []htmlreport.Finding
	for _, f := range fs {
		for _, s := range f.Suspects {
			who := "rank " + itoa(s.Rank)
			if s.Member != nil {
				who = "rank " + s.Member.Label() + " (" + s.Member.Host + ":" + itoa(s.Member.Pid) + ")"
			}
			out = append(out, htmlreport.Finding{Kind: "hang", Comm: commLabel(f.Group),
				Summary: fmt.Sprintf("%s may have hung the job (score %d; %d ranks, %d with lines)", who, s.Score, f.Group.NRanks, f.Present),
				Details: evidenceText(s, f)})
		}
	}
	return out
}

// checkFindings are check's disagreements, in the words check prints.
func checkFindings(fs []ranks.CheckFinding) []htmlreport.Finding {
	var out []htmlreport.Finding
	for _, f := range fs {
		h := htmlreport.Finding{Kind: "check", Comm: commLabel(f.Group)}
		switch f.Kind {
		case ranks.KindMismatch:
			h.Summary = fmt.Sprintf("call %d%s: %s differs", f.Index, withStep(f.Step), f.What)
			for _, s := range f.Sides {
				h.Details = append(h.Details, ranksWord(s.Members)+": "+sigText(s.Sig))
			}
			if len(f.Short) > 0 {
				h.Details = append(h.Details, ranksWord(f.Short)+": never got to this call")
			}
		case ranks.KindLength:
			h.Summary = fmt.Sprintf("sequences of different lengths: the longest has %s calls", count(f.Index))
			for _, m := range f.Short {
				h.Details = append(h.Details, "rank "+m.Label()+": "+count(m.Calls)+" calls")
			}
		}
		out = append(out, h)
	}
	return out
}
